package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import archlab.db.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader's store choice: memory unless told, the script's URL file found from the module upwards, a clear line when no server answers. */
class LabStoreTest {

    @TempDir
    Path repo;

    private static LabProperties lab(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return LabProperties.read(p);
    }

    private Path module() throws IOException {
        Files.createDirectories(repo.resolve(".servers"));
        return Files.createDirectories(repo.resolve("ch12-1-baseline"));
    }

    @Test
    @DisplayName("without -Dlab.store the orders stay in memory, which needs no server and is always usable")
    void memoryByDefault() throws IOException {
        LabStore store = LabStore.read(lab(), module());
        assertThat(store.kind()).isEqualTo(StoreKind.MEMORY);
        assertThat(store.postgres()).isFalse();
        assertThat(store.unavailable()).isEmpty();
        assertThat(store.poolSize()).isEqualTo(10);
        assertThatIllegalStateException().isThrownBy(() -> store.openDatabase("x")).withMessageContaining("opens no database");
    }

    @Test
    @DisplayName("the JDBC URL comes from -Dlab.jdbc.url, else from the file .servers/postgres.sh wrote under the repository's target/")
    void urlFromTheFlagOrTheScriptsFile() throws IOException {
        Path module = module();
        Path file = repo.resolve(LabStore.URL_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "jdbc:postgresql://127.0.0.1:40001/archlab?user=archlab\n");

        LabStore fromFile = LabStore.read(lab("lab.store", "postgres", "lab.db.pool", "4"), module);
        assertThat(fromFile.jdbcUrl()).contains("jdbc:postgresql://127.0.0.1:40001/archlab?user=archlab");
        assertThat(fromFile.urlSource()).isEqualTo(file.toString());
        assertThat(fromFile.poolSize()).isEqualTo(4);

        LabStore given = LabStore.read(lab("lab.store", "POSTGRES", "lab.jdbc.url", " jdbc:postgresql://db:5432/x "), module);
        assertThat(given.kind()).isEqualTo(StoreKind.POSTGRES);
        assertThat(given.jdbcUrl()).contains("jdbc:postgresql://db:5432/x");
        assertThat(given.urlSource()).isEqualTo("-Dlab.jdbc.url");
    }

    @Test
    @DisplayName("no server known: lab.store=postgres is unavailable with the line 'PostgreSQL not running: start it with `bash .servers/postgres.sh start`'")
    void noServerSaysHowToStartOne() throws IOException {
        LabStore store = LabStore.read(lab("lab.store", "postgres"), module());
        assertThat(store.jdbcUrl()).isEmpty();
        assertThat(store.unavailable()).hasValueSatisfying(line -> assertThat(line)
                .startsWith("PostgreSQL not running: start it with `bash .servers/postgres.sh start`")
                .contains(LabStore.URL_FILE));
        assertThatIllegalStateException().isThrownBy(() -> store.openDatabase("x")).withMessageStartingWith(LabStore.NOT_RUNNING);
    }

    @Test
    @DisplayName("a server that does not answer is unavailable too, naming the URL and the driver's reason")
    void deadServerIsNamed() throws IOException {
        LabStore store = LabStore.read(lab("lab.store", "postgres", "lab.jdbc.url", "jdbc:postgresql://127.0.0.1:1/archlab"), module());
        assertThat(store.unavailable()).hasValueSatisfying(line -> assertThat(line).startsWith(LabStore.NOT_RUNNING)
                .contains("jdbc:postgresql://127.0.0.1:1/archlab from -Dlab.jdbc.url: "));
    }

    @Test
    @DisplayName("bad store flags stop the run naming the flag: another store, another database's URL, a pool of 0 or 201")
    void badFlagsAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> lab("lab.store", "redis"))
                .withMessage("lab.store must be memory or postgres, was 'redis'");
        assertThatIllegalArgumentException().isThrownBy(() -> lab("lab.jdbc.url", "jdbc:mysql://db/x"))
                .withMessageStartingWith("lab.jdbc.url must be a PostgreSQL JDBC URL such as jdbc:postgresql://");
        assertThatIllegalArgumentException().isThrownBy(() -> lab("lab.db.pool", "0"))
                .withMessage("lab.db.pool must be 1..200 connections, was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> lab("lab.db.pool", "201"))
                .withMessage("lab.db.pool must be 1..200 connections, was 201");
    }
}

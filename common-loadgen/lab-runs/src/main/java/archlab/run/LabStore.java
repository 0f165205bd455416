package archlab.run;

import archlab.db.LabDatabase;
import archlab.db.StoreKind;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run's fixtures keep their orders, as the reader chose: {@code -Dlab.store=memory|postgres} (memory unless
 * told), {@code -Dlab.jdbc.url} (default: the URL {@code .servers/postgres.sh start} wrote to
 * {@value #URL_FILE} under the repository's root) and {@code -Dlab.db.pool} (each fixture's pool size). Read through
 * {@link LabProperties}, like every {@code lab.*} key. A fixture asks {@link #unavailable()} before it opens its
 * database ({@link #openDatabase}); when PostgreSQL cannot be reached, the line it gets back says so and how to start
 * it, and a test that needs the server is skipped with that line, never silently.
 *
 * @param kind      memory or postgres
 * @param jdbcUrl   the server's URL, when one is known (given, or written by the script)
 * @param urlSource where {@code jdbcUrl} came from, for messages: {@code -Dlab.jdbc.url}, the file's path, or why none
 * @param poolSize  each fixture's pool size
 */
public record LabStore(StoreKind kind, Optional<String> jdbcUrl, String urlSource, int poolSize) {

    /** Where the checkpoint keeps its orders: in memory (the book's) or in PostgreSQL ({@link LabStore}). */
    public static final LabProperties.Key<archlab.db.StoreKind> STORE = new LabProperties.Key<>("lab.store",
            "where the orders are kept: memory or postgres", "postgres",
            (property, v) -> LabValueParsers.oneOf(property, v, archlab.db.StoreKind.class, "memory or postgres"));
    /** The PostgreSQL server of {@code lab.store=postgres}, when not the one {@code .servers/postgres.sh} started. */
    public static final LabProperties.Key<String> JDBC_URL = new LabProperties.Key<>("lab.jdbc.url",
            "the PostgreSQL server for lab.store=postgres (default: the one .servers/postgres.sh started)",
            "jdbc:postgresql://127.0.0.1:5432/archlab?user=archlab", LabStore::checkedJdbcUrl);
    /** The size of each fixture's connection pool with {@code lab.store=postgres}. */
    public static final LabProperties.Key<Integer> DB_POOL = new LabProperties.Key<>("lab.db.pool",
            "the connection pool's size with lab.store=postgres (1..200; HikariCP's default 10)", "10",
            (property, v) -> archlab.db.LabDatabase.checkedPoolSize(property, LabValueParsers.wholeNumber(property, v)));


    /** Where {@code .servers/postgres.sh start} writes the JDBC URL, relative to the repository's root. */
    public static final String URL_FILE = "target/servers/postgres/jdbc.url";
    /** The start of the line a test prints when it is skipped for want of a server. */
    public static final String NOT_RUNNING = "PostgreSQL not running: start it with `bash .servers/postgres.sh start`";

    /** The report line a fixture on PostgreSQL adds ({@code store=postgres pool=… schema=… url=…}); {@link LabRun} checks it. */
    public static final String REPORT_LINE = "store";

    /** The default: the book's store, in memory. */
    public static final LabStore MEMORY = new LabStore(StoreKind.MEMORY, Optional.empty(), "not needed", LabDatabase.DEFAULT_POOL_SIZE);

    public LabStore {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(urlSource, "urlSource");
        LabDatabase.checkedPoolSize("poolSize", poolSize);
    }

    /**
     * @return the reader's choice from this JVM's {@code -Dlab.*} properties; the default URL is looked for from the
     *         module's folder ({@code archlab.module.dir}) or the working directory upwards
     * @throws IllegalArgumentException for an unknown {@code lab.*} key or a bad value (see {@link LabProperties})
     */
    public static LabStore fromSystem() {
        return read(LabProperties.fromSystem(), Path.of(System.getProperty("archlab.module.dir", ".")));
    }

    /** @return the choice in {@code lab}, the script's URL file looked for from {@code from} upwards */
    static LabStore read(LabProperties lab, Path from) {
        StoreKind kind = lab.get(STORE).orElse(StoreKind.MEMORY);
        int pool = lab.get(DB_POOL).orElse(LabDatabase.DEFAULT_POOL_SIZE);
        Optional<String> given = lab.get(JDBC_URL);
        if (given.isPresent()) {
            return new LabStore(kind, given, "-D" + JDBC_URL.property(), pool);
        }
        Optional<Path> file = ServerUrlFile.find(from, URL_FILE);
        if (file.isEmpty()) {
            return new LabStore(kind, Optional.empty(), "no -D" + JDBC_URL.property() + ", no " + URL_FILE, pool);
        }
        return new LabStore(kind, ServerUrlFile.read(file.get()), file.get().toString(), pool);
    }

    /** Accepts a PostgreSQL JDBC URL ({@code jdbc:postgresql://host:port/database?user=…}), trimmed; else names the property. */
    static String checkedJdbcUrl(String property, String v) {
        String u = v.trim();
        if (!u.startsWith("jdbc:postgresql:") || u.length() == "jdbc:postgresql:".length()) {
            throw new IllegalArgumentException(property + " must be a PostgreSQL JDBC URL such as"
                    + " jdbc:postgresql://127.0.0.1:5432/archlab?user=archlab, was '" + v + "'");
        }
        return u;
    }

    /** @return whether the orders live in PostgreSQL */
    public boolean postgres() {
        return kind == StoreKind.POSTGRES;
    }

    /**
     * @return empty when the store can be used (always in memory; in PostgreSQL when a connection opened), else the
     *         line saying why not: {@value #NOT_RUNNING}, then the URL tried and the driver's message
     */
    public Optional<String> unavailable() {
        if (!postgres()) {
            return Optional.empty();
        }
        if (jdbcUrl.isEmpty()) {
            return Optional.of(NOT_RUNNING + " (" + urlSource + ")");
        }
        return LabDatabase.unreachable(jdbcUrl.get())
                .map(why -> NOT_RUNNING + " (" + jdbcUrl.get() + " from " + urlSource + ": " + why + ")");
    }

    /**
     * Opens one fixture's database: a fresh schema migrated from the class path's {@code db/migration}, and a measured
     * pool of {@link #poolSize()} connections to it. The caller closes it (the schema is dropped).
     *
     * @param label a few letters naming the fixture, kept in the schema's name
     * @throws IllegalStateException when the store is not PostgreSQL or the server cannot be used ({@link #unavailable()})
     */
    public LabDatabase openDatabase(String label) {
        if (!postgres()) {
            throw new IllegalStateException("lab.store=" + kind.name().toLowerCase(java.util.Locale.ROOT) + " opens no database");
        }
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IllegalStateException(why.get());
        }
        return LabDatabase.open(jdbcUrl.orElseThrow(), label, poolSize);
    }

    /**
     * @return the line a fixture on PostgreSQL adds to its report, {@value #REPORT_LINE}: {@code postgres pool=… schema=…
     *         url=…} ({@link LabRun} refuses a PostgreSQL run whose fixture reports none)
     */
    public archlab.report.ReportLine reportLine(LabDatabase database) {
        return new archlab.report.ReportLine(REPORT_LINE, "postgres pool=" + poolSize + " schema=" + database.schema()
                + " url=" + jdbcUrl.orElseThrow());
    }

    /** @return e.g. {@code store=postgres pool=10 url=jdbc:postgresql://…}, or {@code store=memory} */
    public String describe() {
        return postgres() ? "store=postgres pool=" + poolSize + " url=" + jdbcUrl.orElse("none") : "store=memory";
    }

}

package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.loadgen.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one reader of {@code -Dlab.*}: every key known, an unknown one refused by name before any run. */
class LabPropertiesTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    @DisplayName("an unknown lab.* key is refused with a message naming it, its value and every known key")
    void unknownKeyIsRefusedByName() {
        assertThatIllegalArgumentException().isThrownBy(() -> LabProperties.read(props("lab.rat", "1000")))
                .withMessageStartingWith("unknown property -Dlab.rat=1000 (did you mean lab.rate?); known: lab.rate, "
                        + "lab.duration, lab.timeout, lab.threads, lab.arrival, lab.warmup, lab.jit.warmup, lab.trace, lab.interval, lab.repeat, "
                        + "lab.profile, lab.transport, lab.server.threads, lab.loop, lab.loop.connections, "
                        + "lab.serve.port, lab.serve.seconds, lab.crash.kills, lab.crash.seed, lab.store, lab.jdbc.url, lab.db.pool, lab.cache, lab.redis.url, "
                        + "lab.sweep.rates, lab.sweep.duration, lab.sweep.warmup, lab.sweep.attempts");
    }

    @Test
    @DisplayName("an unknown key is refused even next to good known ones, which are then not read")
    void unknownKeyIsRefusedNextToKnownOnes() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LabProperties.read(props("lab.rate", "1000", "lab.duratoin", "5s")))
                .withMessageContaining("-Dlab.duratoin=5s").withMessageContaining("did you mean lab.duration?");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "lab.rat, lab.rate",
        "lab.rates, lab.rate",
        "LAB.RATE, lab.rate",
        "lab.thread, lab.threads",
        "lab.sweep.rate, lab.sweep.rates",
        "lab.sweep_rates, lab.sweep.rates",
        "lab.attempts, lab.sweep.attempts",
        "lab.sweep.repeat, lab.repeat"})
    @DisplayName("the nearest known key is suggested: a typo two edits away, or the same last part")
    void nearestKeyIsSuggested(String unknown, String nearest) {
        assertThatIllegalArgumentException().isThrownBy(() -> LabProperties.read(props(unknown, "1")))
                .withMessageContaining("-D" + unknown + "=1 (did you mean " + nearest + "?)");
    }

    @Test
    @DisplayName("a name far from every key gets no guess, only the list of known keys")
    void farNameGetsNoGuess() {
        assertThatIllegalArgumentException().isThrownBy(() -> LabProperties.read(props("lab.colour", "blue")))
                .withMessage("unknown property -Dlab.colour=blue; known: " + LabProperties.knownKeys());
    }

    @Test
    @DisplayName("several unknown keys are all named in one message, sorted")
    void severalUnknownKeysAreAllNamed() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LabProperties.read(props("lab.zzz", "1", "lab.rat", "2")))
                .withMessageStartingWith("unknown properties -Dlab.rat=2 (did you mean lab.rate?), -Dlab.zzz=1; known: ");
    }

    @ParameterizedTest(name = "-D{0}")
    @ValueSource(strings = {"lab", "labrate", "archlab.session", "archlab.reports.dir", "baseline", "java.version",
        "my.lab.rate"})
    @DisplayName("properties outside lab.* are ignored")
    void othersAreIgnored(String name) {
        assertThat(LabProperties.read(props(name, "x")).get(LabProperties.RATE)).isEmpty();
    }

    static Stream<LabProperties.Key<?>> keys() {
        return LabProperties.KEYS.stream();
    }

    @ParameterizedTest(name = "-D{0}")
    @MethodSource("keys")
    @DisplayName("every known key reads its example value back, and says what it sets")
    void everyKeyReadsItsExample(LabProperties.Key<?> key) {
        LabProperties lab = LabProperties.read(props(key.property(), key.example()));
        assertThat(lab.get(key)).isPresent();
        assertThat(lab.given(key)).contains(key.example());
        assertThat(key.property()).startsWith(LabProperties.PREFIX);
        assertThat(key.sets()).isNotBlank();
    }

    @Test
    @DisplayName("a known key's value is parsed: -Dlab.rate=1_500 reads as 1500, -Dlab.sweep.duration=2s as 2 s")
    void knownKeyIsParsed() {
        LabProperties lab = LabProperties.read(props("lab.rate", "1_500", "lab.sweep.duration", "2s"));
        assertThat(lab.get(LabProperties.RATE)).contains(1500);
        assertThat(lab.get(LabProperties.SWEEP_DURATION)).contains(Duration.ofSeconds(2));
        assertThat(lab.get(LabProperties.TIMEOUT)).isEmpty();
    }

    @Test
    @DisplayName("every key name is distinct")
    void namesAreDistinct() {
        assertThat(LabProperties.KEYS).extracting(LabProperties.Key::property).doesNotHaveDuplicates();
    }

    /**
     * Every {@code -Dlab.*} that the README, the pages under {@code docs/}, the chapters or the CI scripts tell a reader
     * to type is a known key, and every known key has its row in the table of {@code docs/load-and-transport.md}'s
     * section "Changing the load", saying what {@link LabProperties} says.
     */
    @Test
    @DisplayName("every -Dlab.* the README, docs, book and scripts mention is a known key, and the table of docs/load-and-transport.md has a row per key")
    void docsNameOnlyKnownKeys() throws IOException {
        Path root = RepoRoot.path();
        assumeThat(Files.isRegularFile(root.resolve("README.md"))).as("the project's README.md").isTrue();
        Path loadPage = root.resolve("docs/load-and-transport.md");
        assertThat(loadPage).as("the page that holds the table of -Dlab.* keys").isRegularFile();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        for (String dir : List.of("docs", "book", ".ci")) {
            if (Files.isDirectory(root.resolve(dir))) {
                try (Stream<Path> files = Files.list(root.resolve(dir))) {
                    files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".png")).forEach(docs::add);
                }
            }
        }
        Pattern flag = Pattern.compile("-D(lab\\.[A-Za-z_.]*[A-Za-z_])");
        TreeSet<String> mentioned = new TreeSet<>();
        for (Path doc : docs) {
            // docs/load-and-transport.md quotes the refusal of a typo: that line names an unknown key on purpose
            String text = Files.readString(doc).lines().filter(l -> !l.startsWith("unknown propert"))
                    .collect(java.util.stream.Collectors.joining("\n"));
            Matcher m = flag.matcher(text);
            while (m.find()) {
                mentioned.add(m.group(1));
            }
        }
        assertThat(mentioned).isNotEmpty();
        assertThat(mentioned).allSatisfy(k -> assertThat(LabProperties.key(k)).as(k).isPresent());

        String section = section(Files.readString(loadPage), "## Changing the load");
        assertThat(LabProperties.KEYS).allSatisfy(k -> assertThat(section)
                .as("docs/load-and-transport.md's row for " + k + " under \"Changing the load\"")
                .contains("| `-D" + k.property() + "` | " + k.sets() + " | "));
    }

    /** @return the text of {@code page} from the line {@code heading} to the next heading of its level or above */
    private static String section(String page, String heading) {
        List<String> lines = page.lines().toList();
        int from = lines.indexOf(heading);
        assertThat(from).as("a section \"" + heading + "\"").isNotNegative();
        StringBuilder text = new StringBuilder();
        for (int i = from + 1; i < lines.size() && !lines.get(i).matches("#{1,2} .*"); i++) {
            text.append(lines.get(i)).append('\n');
        }
        return text.toString();
    }
}

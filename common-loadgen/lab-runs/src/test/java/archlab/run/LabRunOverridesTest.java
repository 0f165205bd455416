package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import archlab.loadgen.Arrival;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.ThreadKind;
import java.time.Duration;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The reader's {@code -Dlab.*} overrides: each one applied, each bad one refused by name, and nothing half-applied. */
class LabRunOverridesTest {

    private static LabRun fresh() {
        return LabRun.named("test-module", "overrides").output(line -> { });
    }

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    static Stream<Arguments> goodOverrides() {
        LoadSpec book = LoadSpec.book();
        return Stream.of(
                good("lab.rate", "1000", book.withRate(1000)),
                good("lab.rate", " 1_500 ", book.withRate(1500)),
                good("lab.duration", "3s", book.withDuration(Duration.ofSeconds(3))),
                good("lab.duration", "200ms", book.withDuration(Duration.ofMillis(200))),
                good("lab.duration", "1.5s", book.withDuration(Duration.ofMillis(1500))),
                good("lab.duration", "PT3S", book.withDuration(Duration.ofSeconds(3))),
                good("lab.duration", "pt0.5s", book.withDuration(Duration.ofMillis(500))),
                good("lab.duration", "2m", book.withDuration(Duration.ofMinutes(2))),
                good("lab.duration", "0.01m", book.withDuration(Duration.ofMillis(600))),
                good("lab.timeout", "300ms", book.withTimeout(Duration.ofMillis(300))),
                good("lab.timeout", "0.5ms", book.withTimeout(Duration.ofNanos(500_000))),
                good("lab.warmup", "2s", book.withWarmup(Duration.ofSeconds(2))),
                good("lab.warmup", "0s", book.withWarmup(Duration.ZERO)),
                good("lab.trace", "10", book.withTraceEvery(10)),
                good("lab.trace", "0", book.withTraceEvery(0)),
                good("lab.threads", "platform", book.withThreads(ThreadKind.PLATFORM)),
                good("lab.threads", "VIRTUAL", book.withThreads(ThreadKind.VIRTUAL)),
                good("lab.arrival", "fixed", book.withArrival(Arrival.fixed())),
                good("lab.arrival", "poisson:7", book.withArrival(Arrival.poisson(7))),
                good("lab.arrival", "Poisson", book.withArrival(Arrival.poisson(1))));
    }

    private static Arguments good(String key, String value, LoadSpec expected) {
        return Arguments.of(key, value, expected);
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @MethodSource("goodOverrides")
    @DisplayName("each lab.* load property is applied to the spec")
    void loadPropertyIsApplied(String key, String value, LoadSpec expected) {
        assertThat(fresh().withOverrides(props(key, value)).spec()).isEqualTo(expected);
    }

    @Test
    @DisplayName("lab.repeat sets how many times the load runs")
    void repeatIsApplied() {
        assertThat(fresh().withOverrides(props("lab.repeat", "3")).repetitions()).isEqualTo(3);
    }

    @ParameterizedTest(name = "-Dlab.profile={0}")
    @ValueSource(strings = {"true", "false", "TRUE", " false "})
    @DisplayName("lab.profile true|false turns JFR recording on or off")
    void profileIsApplied(String value) {
        LabRun run = fresh().profiled(!Boolean.parseBoolean(value.trim()));
        assertThat(run.withOverrides(props("lab.profile", value)).profiled()).isEqualTo(Boolean.parseBoolean(value.trim()));
    }

    @Test
    @DisplayName("the example line of docs/load-and-transport.md applies every property at once")
    void readmeExampleAppliesEverything() {
        LabRun run = fresh().withOverrides(props("lab.rate", "1000", "lab.duration", "5s", "lab.timeout", "300ms",
                "lab.threads", "platform", "lab.arrival", "poisson:7", "lab.warmup", "2s", "lab.trace", "10",
                "lab.repeat", "3", "lab.profile", "false"));
        assertThat(run.spec()).isEqualTo(LoadSpec.builder().ratePerSecond(1000).duration(Duration.ofSeconds(5))
                .timeout(Duration.ofMillis(300)).arrival(Arrival.poisson(7)).threads(ThreadKind.PLATFORM)
                .warmup(Duration.ofSeconds(2)).traceEvery(10).build());
        assertThat(run.repetitions()).isEqualTo(3);
        assertThat(run.profiled()).isFalse();
    }

    @Test
    @DisplayName("no lab.* property leaves the book's load, one repetition, profiled")
    void noPropertiesChangeNothing() {
        LabRun run = fresh().withOverrides(props("unrelated", "x"));
        assertThat(run.spec()).isEqualTo(LoadSpec.book());
        assertThat(run.repetitions()).isEqualTo(1);
        assertThat(run.profiled()).isTrue();
    }

    @Test
    @DisplayName("a run with changed settings writes its report under a name that says so, never over the book's run it is compared with")
    void changedSettingsNameTheReport() {
        java.util.function.Supplier<LabRun> baseline = () -> LabRun.named("test-module", "baseline").output(line -> { });
        assertThat(baseline.get().withOverrides(props("unrelated", "x")).reportName()).isEqualTo("baseline");
        assertThat(baseline.get().withOverrides(props("lab.timeout", "300ms")).reportName()).isEqualTo("baseline-timeout-300ms");
        assertThat(baseline.get().withOverrides(props("lab.threads", "platform", "lab.rate", "1_000", "lab.arrival", "poisson:7"))
                .reportName()).as("keys in one order, values as typed, safe in a file name")
                .isEqualTo("baseline-rate-1-000-threads-platform-arrival-poisson-7");
        assertThat(baseline.get().withOverrides(props("lab.store", "memory", "lab.transport", "http", "lab.db.pool", "50"))
                .reportName()).as("transport and store keep their own suffixes").isEqualTo("baseline-http-db-pool-50");
        assertThat(baseline.get().withOverrides(props("lab.serve.seconds", "5", "lab.sweep.rates", "400,500")).reportName())
                .as("settings that do not change what a load run measures").isEqualTo("baseline");
    }

    @Test
    @DisplayName("the console's last lines repeat the report's verdict block, and nothing when a report has none")
    void verdictIsRepeatedAtTheEnd() {
        String report = "=== m / baseline ===\n--- verdict (read this first) ---\n  outcome: 1 of 1\n  limited by: lock.wait\n\n"
                + "offered=1\n--- lab lines ---\n";
        assertThat(LabRun.verdictOf(report)).containsExactly("--- verdict (read this first) ---", "  outcome: 1 of 1",
                "  limited by: lock.wait");
        assertThat(LabRun.verdictOf("offered=1\n")).isEmpty();
    }

    static Stream<Arguments> badOverrides() {
        return Stream.of(
                Arguments.of("lab.rate", "fast"),
                Arguments.of("lab.rate", "0"),
                Arguments.of("lab.rate", "-5"),
                Arguments.of("lab.rate", "1.5"),
                Arguments.of("lab.rate", "99999999999"),
                Arguments.of("lab.duration", "soon"),
                Arguments.of("lab.duration", "3"),
                Arguments.of("lab.duration", "0s"),
                Arguments.of("lab.duration", "-3s"),
                Arguments.of("lab.duration", "1e3s"),
                Arguments.of("lab.duration", "3h"),
                Arguments.of("lab.duration", "PT-3S"),
                Arguments.of("lab.duration", "999999999999s"),
                Arguments.of("lab.timeout", "0ms"),
                Arguments.of("lab.timeout", "never"),
                Arguments.of("lab.warmup", "later"),
                Arguments.of("lab.trace", "-1"),
                Arguments.of("lab.trace", "all"),
                Arguments.of("lab.threads", "green"),
                Arguments.of("lab.threads", ""),
                Arguments.of("lab.arrival", "bursty"),
                Arguments.of("lab.arrival", "poissonish"),
                Arguments.of("lab.arrival", "poisson:"),
                Arguments.of("lab.arrival", "poisson:x"),
                Arguments.of("lab.profile", "maybe"),
                Arguments.of("lab.profile", "yes"),
                Arguments.of("lab.repeat", "0"),
                Arguments.of("lab.repeat", "-1"),
                Arguments.of("lab.repeat", "twice"));
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @MethodSource("badOverrides")
    @DisplayName("a bad value throws IllegalArgumentException whose message names the property")
    void badValueIsRefusedByName(String key, String value) {
        assertThatIllegalArgumentException().isThrownBy(() -> fresh().withOverrides(props(key, value)))
                .withMessageContaining(key);
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @MethodSource("badOverrides")
    @DisplayName("a bad value changes nothing: spec, repetitions and profiling stay as they were")
    void badValueChangesNothing(String key, String value) {
        LabRun run = fresh().spec(LoadSpec.book().withRate(200)).repetitions(2).profiled(false);
        LoadSpec before = run.spec();
        // every other property good and different, so a half-applied override would show
        Properties p = props("lab.rate", "700", "lab.duration", "1s", "lab.timeout", "100ms", "lab.warmup", "1s",
                "lab.trace", "5", "lab.threads", "platform", "lab.arrival", "poisson:3", "lab.repeat", "4",
                "lab.profile", "true");
        p.setProperty(key, value);
        assertThatIllegalArgumentException().isThrownBy(() -> run.withOverrides(p));
        assertThat(run.spec()).isEqualTo(before);
        assertThat(run.repetitions()).isEqualTo(2);
        assertThat(run.profiled()).isFalse();
    }

    @Test
    @DisplayName("a combination LoadSpec refuses (1/s for 200 ms plans no request) is refused naming a property")
    void refusedCombinationNamesAProperty() {
        LabRun run = fresh();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> run.withOverrides(props("lab.rate", "1", "lab.duration", "200ms")))
                .withMessageContaining("lab.")
                .withMessageContaining("rate × duration");
        assertThat(run.spec()).isEqualTo(LoadSpec.book());
    }

    @Test
    @DisplayName("an unknown lab.* key stops the load run, naming the key and the known keys, and changes nothing")
    void unknownKeyIsRefused() {
        LabRun run = fresh().spec(LoadSpec.book().withRate(200)).repetitions(2).profiled(false);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> run.withOverrides(props("lab.rat", "1000", "lab.duration", "1s", "lab.profile", "true")))
                .withMessageStartingWith("unknown property -Dlab.rat=1000 (did you mean lab.rate?); known: lab.rate, ")
                .withMessageContaining(LabProperties.knownKeys());
        assertThat(run.spec()).isEqualTo(LoadSpec.book().withRate(200));
        assertThat(run.repetitions()).isEqualTo(2);
        assertThat(run.profiled()).isFalse();
    }

    @Test
    @DisplayName("-Dlab.store=postgres on a checkpoint whose fixture keeps its orders in memory is refused before any load, naming why; the fixture is closed")
    void postgresWithoutAStoreIsRefused() {
        RecordingFixture fixture = new RecordingFixture();
        LabRun run = fresh().jitWarmUp(java.time.Duration.ZERO, new JitWarmUp()).profiled(false)
                .withOverrides(props("lab.store", "postgres"));
        assertThatIllegalArgumentException().isThrownBy(() -> run.run(() -> fixture))
                .withMessageStartingWith("lab.store=postgres: test-module keeps its orders in memory");
        assertThat(fixture.calls).doesNotContain("beforeRun executed=0").endsWith("close");
    }

    @Test
    @DisplayName("the sweep's keys are known to a load run too: one command line may carry both, the load's keys apply")
    void sweepKeysAreKnown() {
        LabRun run = fresh().withOverrides(props("lab.rate", "1000", "lab.sweep.rates", "250,500", "lab.sweep.attempts", "1"));
        assertThat(run.spec()).isEqualTo(LoadSpec.book().withRate(1000));
    }

    static Stream<Arguments> badValueMessages() {
        return Stream.of(
                Arguments.of("lab.rate", "fast", "lab.rate must be a whole number, was 'fast'"),
                Arguments.of("lab.rate", "0", "lab.rate='0' is not a valid load: ratePerSecond must be 1..1,000,000, was 0"),
                Arguments.of("lab.duration", "soon", "lab.duration must be a duration such as 3s, 200ms or PT3S, was 'soon'"),
                Arguments.of("lab.duration", "0s", "lab.duration='0s' is not a valid load: duration must be positive, was PT0S"),
                Arguments.of("lab.timeout", "never", "lab.timeout must be a duration such as 3s, 200ms or PT3S, was 'never'"),
                Arguments.of("lab.trace", "-1",
                        "lab.trace='-1' is not a valid load: traceEvery must be 0 (off), 1 (all) or N (1 in N), was -1"),
                Arguments.of("lab.threads", "green", "lab.threads must be platform or virtual, was 'green'"),
                Arguments.of("lab.arrival", "bursty", "lab.arrival must be fixed or poisson[:SEED], was 'bursty'"),
                Arguments.of("lab.arrival", "poisson:x", "lab.arrival needs a whole-number seed, was 'x'"),
                Arguments.of("lab.repeat", "0", "lab.repeat must be at least 1, was '0'"),
                Arguments.of("lab.repeat", "twice", "lab.repeat must be a whole number, was 'twice'"),
                Arguments.of("lab.profile", "maybe", "lab.profile must be true or false, was 'maybe'"),
                Arguments.of("lab.transport", "grpc", "lab.transport must be inprocess or http, was 'grpc'"),
                Arguments.of("lab.server.threads", "green", "lab.server.threads must be platform or virtual, was 'green'"),
                Arguments.of("lab.loop", "half", "lab.loop must be open or closed, was 'half'"),
                Arguments.of("lab.loop.connections", "0", "lab.loop.connections must be 1..10000 connections, was '0'"),
                Arguments.of("lab.loop.connections", "many", "lab.loop.connections must be a whole number, was 'many'"));
    }

    @Test
    @DisplayName("the transport is in process unless -Dlab.transport=http; the server's threads are Tomcat's platform ones unless told")
    void transportOverrides() {
        assertThat(fresh().withOverrides(props()).transport()).isEqualTo(Transport.IN_PROCESS);
        assertThat(fresh().withOverrides(props("lab.transport", "http")).transport())
                .isEqualTo(new Transport(Transport.Kind.HTTP, archlab.http.ServerThreads.PLATFORM));
        assertThat(fresh().withOverrides(props("lab.transport", "HTTP", "lab.server.threads", "virtual")).transport())
                .isEqualTo(new Transport(Transport.Kind.HTTP, archlab.http.ServerThreads.VIRTUAL));
    }

    @Test
    @DisplayName("a load run is open loop: -Dlab.loop=open runs it, -Dlab.loop=closed is refused, naming -Dwrk where the closed loop runs")
    void loadRunIsOpenLoop() {
        assertThat(fresh().withOverrides(props("lab.loop", "open", "lab.loop.connections", "50")).spec())
                .isEqualTo(fresh().spec());
        assertThatIllegalArgumentException().isThrownBy(() -> fresh().withOverrides(props("lab.loop", "closed")))
                .withMessageContaining("lab.loop=closed").withMessageContaining("-Dwrk");
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @MethodSource("badValueMessages")
    @DisplayName("a bad value's message is the one readers know: the property, the value as typed, what is wanted")
    void badValueMessageIsUnchanged(String key, String value, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> fresh().withOverrides(props(key, value)))
                .withMessage(message);
    }

    @ParameterizedTest(name = "name \"{0}\"")
    @ValueSource(strings = {"a/b", "../escape", "with space", " lead", "tab\there", "back\\slash"})
    @NullAndEmptySource
    @DisplayName("LabRun.named refuses a report name with '/', spaces or other characters unsafe in a file name")
    void namedRefusesUnsafeNames(String name) {
        assertThatIllegalArgumentException().isThrownBy(() -> LabRun.named("m", name)).withMessageContaining("name");
    }

    @ParameterizedTest(name = "name \"{0}\"")
    @ValueSource(strings = {"baseline", "scenario-slow_payment.v2", "A-1"})
    @DisplayName("LabRun.named accepts letters, digits, '.', '_' and '-'")
    void namedAcceptsSafeNames(String name) {
        assertThatNoException().isThrownBy(() -> LabRun.named("m", name));
    }

    @Test
    @DisplayName("repetitions below 1 are refused")
    void repetitionsBelowOneAreRefused() {
        LabRun run = fresh();
        assertThatIllegalArgumentException().isThrownBy(() -> run.repetitions(0)).withMessageContaining("repetitions");
    }
}

package archlab.run;

import archlab.http.ServerThreads;
import archlab.text.NearestName;
import archlab.loadgen.Arrival;
import archlab.loadgen.Loop;
import archlab.loadgen.ThreadKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The reader's {@code -Dlab.*} overrides, read in one place for every run kind ({@link LabRun}, {@link CapacitySweep}).
 *
 * <p>The contract:
 * <ul>
 *   <li>Every key the lab knows is one {@link Key} in {@link #KEYS}: its property name, what it sets and an example
 *       value. Nothing else in the lab reads a {@code lab.*} property; a new override is a new key here.</li>
 *   <li>{@link #read(Properties)} looks at every property whose name starts with {@code lab.} (in any case). A name
 *       that is not a known key stops the run before it starts, with a message naming it, its value, the nearest
 *       known key when one is close, and every known key:
 *       {@code unknown property -Dlab.rat=1000 (did you mean lab.rate?); known: lab.rate, lab.duration, …}. A typo
 *       must never run the book's load under the reader's nose.</li>
 *   <li>Every run kind knows every key, so one command line may carry a load run's and a sweep's overrides
 *       ({@code mvn test -Dbaseline -Dsweep -Dlab.rate=1000 -Dlab.sweep.rates=250,500}).</li>
 *   <li>Every value present is parsed by its key, whichever run kind reads it; a bad one stops the run with a message
 *       naming the property and the bad value ({@code lab.rate must be a whole number, was 'fast'}).</li>
 *   <li>Reading changes nothing: it only returns the parsed values. A run kind applies them all or none, after its
 *       own checks of values together (a rate × duration that plans no request is refused by {@link LabRun}).</li>
 *   <li>Properties outside {@code lab.*} are ignored.</li>
 * </ul>
 *
 * <p>This class is the catalogue of keys and their reading; how each kind of value is parsed is
 * {@link LabValueParsers}'s.
 *
 * <p>Thread-safety: immutable.
 */
public final class LabProperties {

    /** Parses one property's value, or throws IllegalArgumentException naming the property and the bad value. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(String property, String value);
    }

    /**
     * One known {@code lab.*} key.
     *
     * @param <T> the type of its parsed value
     */
    public static final class Key<T> {
        private final String property;
        private final String sets;
        private final String example;
        private final Parser<T> parser;

        Key(String property, String sets, String example, Parser<T> parser) {
            this.property = property;
            this.sets = sets;
            this.example = example;
            this.parser = parser;
        }

        /** @return the system property's name, e.g. {@code lab.rate} */
        public String property() {
            return property;
        }

        /** @return what the key sets, in a few words */
        public String sets() {
            return sets;
        }

        /** @return a valid example value, e.g. {@code 1000} */
        public String example() {
            return example;
        }

        /** @return {@code value} parsed; IllegalArgumentException naming the property and the value when it is bad */
        public T parse(String value) {
            return parser.parse(property, value);
        }

        @Override
        public String toString() {
            return property;
        }
    }

    /** Requests per second offered by a load run (1..1,000,000; rate × duration must plan a request). */
    public static final Key<Integer> RATE = new Key<>("lab.rate", "the offered load, req/s", "1000",
            LabValueParsers::wholeNumber);
    /** How long a load run offers its load. */
    public static final Key<Duration> DURATION = new Key<>("lab.duration", "how long the load is offered", "5s",
            LabValueParsers::duration);
    /** Each request's deadline, from its planned start. */
    public static final Key<Duration> TIMEOUT = new Key<>("lab.timeout", "each request's timeout (its deadline)", "300ms",
            LabValueParsers::duration);
    /** The kind of thread each request runs on. */
    public static final Key<ThreadKind> THREADS = new Key<>("lab.threads", "the thread kind: platform or virtual",
            "platform", (property, v) -> LabValueParsers.oneOf(property, v, ThreadKind.class, "platform or virtual"));
    /** When requests are planned to start. */
    public static final Key<Arrival> ARRIVAL = new Key<>("lab.arrival", "the arrival process: fixed or poisson[:SEED]",
            "poisson:7", LabValueParsers::arrival);
    /** Unmeasured load at the same rate before the measured run. */
    public static final Key<Duration> WARMUP = new Key<>("lab.warmup", "unmeasured load before the run (0s for none)", "2s",
            LabValueParsers::duration);
    /** Segment tracing: 0 off, 1 every request, N one request in N. */
    public static final Key<Integer> TRACE = new Key<>("lab.trace", "segment tracing: 0 off, 1 all, N one in N", "10",
            LabValueParsers::wholeNumber);
    /** How many times a load run runs, each on fresh services. */
    public static final Key<Integer> REPEAT = new Key<>("lab.repeat", "how many times the load runs (min/median/max)", "3",
            LabValueParsers::repeat);
    /** The length of one interval of every run's timeline (and its interval log). */
    public static final Key<Duration> INTERVAL = new Key<>("lab.interval",
            "the timeline's interval (1ms..1m): goodput, p99, hiccups per interval", "250ms", LabValueParsers::interval);
    /** The JIT warm-up on a scratch fixture before a JVM's first measured run. */
    public static final Key<Duration> JIT_WARMUP = new Key<>("lab.jit.warmup",
            "the JIT warm-up on a scratch fixture before a JVM's first run (0s for none)", "0s", LabValueParsers::warmup);
    /** JFR recording and the profiles read back from it. */
    public static final Key<Boolean> PROFILE = new Key<>("lab.profile", "JFR recording and profiles: true or false", "false",
            LabValueParsers::bool);
    /** The capacity sweep's rates. */
    public static final Key<List<Integer>> SWEEP_RATES = new Key<>("lab.sweep.rates",
            "the capacity sweep's rates, req/s, comma-separated", "250,500,750", LabValueParsers::rates);
    /** How long the capacity sweep offers each rate. */
    public static final Key<Duration> SWEEP_DURATION = new Key<>("lab.sweep.duration", "how long the sweep offers each rate",
            "2s", LabValueParsers::duration);
    /** Unmeasured load at the sweep's lowest rate before its first measured one. */
    public static final Key<Duration> SWEEP_WARMUP = new Key<>("lab.sweep.warmup",
            "unmeasured load before the sweep (0s for none)", "0s", LabValueParsers::warmup);
    /** The most runs of one sweep rate: the first, and reruns while the generator was late. */
    public static final Key<Integer> SWEEP_ATTEMPTS = new Key<>("lab.sweep.attempts",
            "the most runs of one sweep rate (1..10)", "3", LabValueParsers::sweepAttempts);

    /** How the runner reaches the service: a Java call, or HTTP to the service on an embedded Tomcat. */
    public static final Key<Transport.Kind> TRANSPORT = new Key<>("lab.transport",
            "how the runner reaches the service: inprocess or http", "http",
            (property, v) -> LabValueParsers.oneOf(property, v, Transport.Kind.class, "inprocess or http"));
    /** The HTTP server's threads, with {@code lab.transport=http}. */
    public static final Key<ServerThreads> SERVER_THREADS = new Key<>("lab.server.threads",
            "the HTTP server's threads: platform (Tomcat's 200) or virtual", "virtual",
            (property, v) -> LabValueParsers.oneOf(property, v, ServerThreads.class, "platform or virtual"));

    /** Open loop (the lab's runner) or closed loop (N connections, each waiting for its answer, as wrk). */
    public static final Key<Loop> LOOP = new Key<>("lab.loop", "how requests are sent: open (on a schedule) or closed"
            + " (each connection waits for its answer)", "closed",
            (property, v) -> LabValueParsers.oneOf(property, v, Loop.class, "open or closed"));
    /** The closed loop's connections (wrk's {@code -c}). */
    public static final Key<Integer> LOOP_CONNECTIONS = new Key<>("lab.loop.connections",
            "the closed loop's connections, 1..10000 (wrk's -c)", "200", LabValueParsers::connections);

    /** The port a checkpoint served on its own listens on ({@code -Dserve}, {@code archlab.serve}). */
    public static final Key<Integer> SERVE_PORT = new Key<>("lab.serve.port",
            "the port a served checkpoint listens on, on 127.0.0.1 (0: a free one the OS picks)", "8080",
            (property, v) -> archlab.loopback.LoopbackPort.checkedPort(property, LabValueParsers.wholeNumber(property, v), v));
    /** How long a checkpoint served on its own serves before it stops by itself. */
    public static final Key<Integer> SERVE_SECONDS = new Key<>("lab.serve.seconds",
            "how long a served checkpoint serves, whole seconds 1..86400 (unset: until stopped)", "30",
            (property, v) -> LabValueParsers.within(property, v, 1, 86_400, " whole seconds"));

    /** How many times the crash test ({@code -Dcrash}) kills the served checkpoint. */
    public static final Key<Integer> CRASH_KILLS = new Key<>("lab.crash.kills",
            "how many times -Dcrash kills the served checkpoint, 1..100 (default 10)", "10",
            (property, v) -> LabValueParsers.within(property, v, 1, 100, " kills"));
    /** The first kill's seed: kill k replays with seed + k − 1. */
    public static final Key<Long> CRASH_SEED = new Key<>("lab.crash.seed",
            "the seed of -Dcrash's first kill (kill k uses seed + k - 1; the report prints each)", "1",
            (property, v) -> {
                try {
                    return Long.parseLong(v.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(property + " must be a whole number, was '" + v + "'");
                }
            });

    /** The long run's warm-up ({@code -Dlong}, {@link LongRunSettings}). */
    public static final Key<Duration> LONG_WARMUP = new Key<>("lab.long.warmup",
            "-Dlong's unmeasured load before its measured window (0s for none)", "30s", LabValueParsers::duration);
    /** The long run's measured window. */
    public static final Key<Duration> LONG_MEASURED = new Key<>("lab.long.measured",
            "-Dlong's measured window (the article's rule: 2 minutes)", "120s", LabValueParsers::duration);
    /** The long run's stability window, after the measured one. */
    public static final Key<Duration> LONG_STABILITY = new Key<>("lab.long.stability",
            "-Dlong's stability window after the measured one", "30s", LabValueParsers::duration);

    /** Every known key, in the order docs/load-and-transport.md lists them. */
    public static final List<Key<?>> KEYS = List.of(RATE, DURATION, TIMEOUT, THREADS, ARRIVAL, WARMUP, JIT_WARMUP, TRACE,
            INTERVAL, REPEAT, PROFILE, TRANSPORT, SERVER_THREADS, LOOP, LOOP_CONNECTIONS, SERVE_PORT, SERVE_SECONDS,
            CRASH_KILLS, CRASH_SEED, LabStore.STORE, LabStore.JDBC_URL, LabStore.DB_POOL, LabCache.CACHE, LabCache.REDIS_URL,
            SWEEP_RATES, SWEEP_DURATION, SWEEP_WARMUP, SWEEP_ATTEMPTS, LONG_WARMUP, LONG_MEASURED, LONG_STABILITY);

    /** The closed loop's connections unless {@code -Dlab.loop.connections} says otherwise: wrk's -c200 in the article. */
    public static final int DEFAULT_CONNECTIONS = 200;

    /** The prefix that marks a property as the lab's. */
    public static final String PREFIX = "lab.";

    private final Map<Key<?>, Object> values;
    private final Map<Key<?>, String> given;

    private LabProperties(Map<Key<?>, Object> values, Map<Key<?>, String> given) {
        this.values = Collections.unmodifiableMap(values);
        this.given = Collections.unmodifiableMap(given);
    }

    /** @return the overrides of this JVM's system properties ({@code -Dlab.*}, passed on to the test JVM by Maven) */
    public static LabProperties fromSystem() {
        return read(System.getProperties());
    }

    /**
     * Reads every {@code lab.*} property of {@code p}.
     *
     * @throws IllegalArgumentException for an unknown {@code lab.*} key (naming it and the known keys) or a bad value
     *                                  (naming the property and the value)
     */
    public static LabProperties read(Properties p) {
        TreeSet<String> unknown = new TreeSet<>();
        for (String name : p.stringPropertyNames()) {
            if (name.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) && key(name).isEmpty()) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(unknownMessage(unknown, p));
        }
        Map<Key<?>, Object> parsed = new LinkedHashMap<>();
        Map<Key<?>, String> given = new LinkedHashMap<>();
        for (Key<?> key : KEYS) {
            String v = p.getProperty(key.property());
            if (v != null) {
                parsed.put(key, key.parse(v));
                given.put(key, v);
            }
        }
        return new LabProperties(parsed, given);
    }

    /** @return the key named {@code property} exactly, if the lab knows it */
    public static Optional<Key<?>> key(String property) {
        return KEYS.stream().filter(k -> k.property().equals(property)).<Key<?>>map(k -> k).findFirst();
    }

    /** @return the value given for {@code key}, parsed; empty when the property is not set */
    public <T> Optional<T> get(Key<T> key) {
        @SuppressWarnings("unchecked") // put by read() from key.parse: a T
        T value = (T) values.get(key);
        return Optional.ofNullable(value);
    }

    /** @return the value given for {@code key} as the reader wrote it, for messages; empty when not set */
    public Optional<String> given(Key<?> key) {
        return Optional.ofNullable(given.get(key));
    }

    /** @return {@code lab.rate, lab.duration, …}: every known key's name */
    public static String knownKeys() {
        return KEYS.stream().map(Key::property).collect(Collectors.joining(", "));
    }

    private static String unknownMessage(TreeSet<String> unknown, Properties p) {
        List<String> named = new ArrayList<>();
        for (String name : unknown) {
            String s = "-D" + name + "=" + p.getProperty(name);
            String nearest = nearest(name);
            named.add(nearest == null ? s : s + " (did you mean " + nearest + "?)");
        }
        return (unknown.size() == 1 ? "unknown property " : "unknown properties ") + String.join(", ", named)
                + "; known: " + knownKeys();
    }

    /**
     * @return the known key closest to {@code unknown}: at most two edits away (ignoring case), or with the same last
     *         part ({@code lab.attempts} → {@code lab.sweep.attempts}); null when none is close
     */
    static String nearest(String unknown) {
        String u = unknown.toLowerCase(Locale.ROOT);
        List<String> known = KEYS.stream().map(Key::property).toList();
        String last = u.substring(u.lastIndexOf('.') + 1);
        return NearestName.among(u, known).orElseGet(() -> known.stream()
                .filter(k -> k.substring(k.lastIndexOf('.') + 1).equals(last)).findFirst().orElse(null));
    }
}

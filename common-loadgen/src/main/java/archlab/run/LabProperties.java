package archlab.run;

import archlab.http.ServerThreads;
import archlab.text.NearestName;
import archlab.loadgen.Arrival;
import archlab.loadgen.Loop;
import archlab.loadgen.ThreadKind;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Pattern;
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
            LabProperties::wholeNumber);
    /** How long a load run offers its load. */
    public static final Key<Duration> DURATION = new Key<>("lab.duration", "how long the load is offered", "5s",
            LabProperties::duration);
    /** Each request's deadline, from its planned start. */
    public static final Key<Duration> TIMEOUT = new Key<>("lab.timeout", "each request's timeout (its deadline)", "300ms",
            LabProperties::duration);
    /** The kind of thread each request runs on. */
    public static final Key<ThreadKind> THREADS = new Key<>("lab.threads", "the thread kind: platform or virtual",
            "platform", (property, v) -> oneOf(property, v, ThreadKind.class, "platform or virtual"));
    /** When requests are planned to start. */
    public static final Key<Arrival> ARRIVAL = new Key<>("lab.arrival", "the arrival process: fixed or poisson[:SEED]",
            "poisson:7", LabProperties::arrival);
    /** Unmeasured load at the same rate before the measured run. */
    public static final Key<Duration> WARMUP = new Key<>("lab.warmup", "unmeasured load before the run (0s for none)", "2s",
            LabProperties::duration);
    /** Segment tracing: 0 off, 1 every request, N one request in N. */
    public static final Key<Integer> TRACE = new Key<>("lab.trace", "segment tracing: 0 off, 1 all, N one in N", "10",
            LabProperties::wholeNumber);
    /** How many times a load run runs, each on fresh services. */
    public static final Key<Integer> REPEAT = new Key<>("lab.repeat", "how many times the load runs (min/median/max)", "3",
            LabProperties::repeat);
    /** The length of one interval of every run's timeline (and its interval log). */
    public static final Key<Duration> INTERVAL = new Key<>("lab.interval",
            "the timeline's interval (1ms..1m): goodput, p99, hiccups per interval", "250ms", LabProperties::interval);
    /** The JIT warm-up on a scratch fixture before a JVM's first measured run. */
    public static final Key<Duration> JIT_WARMUP = new Key<>("lab.jit.warmup",
            "the JIT warm-up on a scratch fixture before a JVM's first run (0s for none)", "0s", LabProperties::warmup);
    /** JFR recording and the profiles read back from it. */
    public static final Key<Boolean> PROFILE = new Key<>("lab.profile", "JFR recording and profiles: true or false", "false",
            LabProperties::bool);
    /** The capacity sweep's rates. */
    public static final Key<List<Integer>> SWEEP_RATES = new Key<>("lab.sweep.rates",
            "the capacity sweep's rates, req/s, comma-separated", "250,500,750", LabProperties::rates);
    /** How long the capacity sweep offers each rate. */
    public static final Key<Duration> SWEEP_DURATION = new Key<>("lab.sweep.duration", "how long the sweep offers each rate",
            "2s", LabProperties::duration);
    /** Unmeasured load at the sweep's lowest rate before its first measured one. */
    public static final Key<Duration> SWEEP_WARMUP = new Key<>("lab.sweep.warmup",
            "unmeasured load before the sweep (0s for none)", "0s", LabProperties::warmup);
    /** The most runs of one sweep rate: the first, and reruns while the generator was late. */
    public static final Key<Integer> SWEEP_ATTEMPTS = new Key<>("lab.sweep.attempts",
            "the most runs of one sweep rate (1..10)", "3", LabProperties::sweepAttempts);

    /** How the runner reaches the service: a Java call, or HTTP to the service on an embedded Tomcat. */
    public static final Key<Transport.Kind> TRANSPORT = new Key<>("lab.transport",
            "how the runner reaches the service: inprocess or http", "http",
            (property, v) -> oneOf(property, v, Transport.Kind.class, "inprocess or http"));
    /** The HTTP server's threads, with {@code lab.transport=http}. */
    public static final Key<ServerThreads> SERVER_THREADS = new Key<>("lab.server.threads",
            "the HTTP server's threads: platform (Tomcat's 200) or virtual", "virtual",
            (property, v) -> oneOf(property, v, ServerThreads.class, "platform or virtual"));

    /** Open loop (the lab's runner) or closed loop (N connections, each waiting for its answer, as wrk). */
    public static final Key<Loop> LOOP = new Key<>("lab.loop", "how requests are sent: open (on a schedule) or closed"
            + " (each connection waits for its answer)", "closed",
            (property, v) -> oneOf(property, v, Loop.class, "open or closed"));
    /** The closed loop's connections (wrk's {@code -c}). */
    public static final Key<Integer> LOOP_CONNECTIONS = new Key<>("lab.loop.connections",
            "the closed loop's connections, 1..10000 (wrk's -c)", "200", LabProperties::connections);

    /** The port a checkpoint served on its own listens on ({@code -Dserve}, {@code archlab.serve}). */
    public static final Key<Integer> SERVE_PORT = new Key<>("lab.serve.port",
            "the port a served checkpoint listens on, on 127.0.0.1 (0: a free one the OS picks)", "8080",
            (property, v) -> archlab.loopback.LoopbackPort.checkedPort(property, wholeNumber(property, v), v));
    /** How long a checkpoint served on its own serves before it stops by itself. */
    public static final Key<Integer> SERVE_SECONDS = new Key<>("lab.serve.seconds",
            "how long a served checkpoint serves, whole seconds 1..86400 (unset: until stopped)", "30",
            (property, v) -> within(property, v, 1, 86_400, " whole seconds"));

    /** How many times the crash test ({@code -Dcrash}) kills the served checkpoint. */
    public static final Key<Integer> CRASH_KILLS = new Key<>("lab.crash.kills",
            "how many times -Dcrash kills the served checkpoint, 1..100 (default 10)", "10",
            (property, v) -> within(property, v, 1, 100, " kills"));
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

    /** Every known key, in the order the README lists them. */
    public static final List<Key<?>> KEYS = List.of(RATE, DURATION, TIMEOUT, THREADS, ARRIVAL, WARMUP, JIT_WARMUP, TRACE,
            INTERVAL, REPEAT, PROFILE, TRANSPORT, SERVER_THREADS, LOOP, LOOP_CONNECTIONS, SERVE_PORT, SERVE_SECONDS,
            CRASH_KILLS, CRASH_SEED, LabStore.STORE, LabStore.JDBC_URL, LabStore.DB_POOL, LabCache.CACHE, LabCache.REDIS_URL,
            SWEEP_RATES, SWEEP_DURATION, SWEEP_WARMUP, SWEEP_ATTEMPTS);

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

    // ---- the parsers: each message names the property and the value as given ----

    static int wholeNumber(String property, String v) {
        try {
            return Integer.parseInt(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a whole number, was '" + v + "'");
        }
    }

    private static int repeat(String property, String v) {
        int n = wholeNumber(property, v);
        if (n < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was '" + v + "'");
        }
        return n;
    }

    /** Parses the name of one of {@code type}'s constants, in any case; {@code names} lists them for the message. */
    static <E extends Enum<E>> E oneOf(String property, String v, Class<E> type, String names) {
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " must be " + names + ", was '" + v + "'");
        }
    }

    private static int connections(String property, String v) {
        return within(property, v, 1, 10_000, " connections");
    }

    /** A whole number in {@code min..max}, or a message naming the property, the range ({@code what} after it) and v. */
    private static int within(String property, String v, int min, int max, String what) {
        int n = wholeNumber(property, v);
        if (n < min || n > max) {
            throw new IllegalArgumentException(property + " must be " + min + ".." + max + what + ", was '" + v + "'");
        }
        return n;
    }

    private static Arrival arrival(String property, String v) {
        String a = v.trim().toLowerCase(Locale.ROOT);
        if (a.equals("fixed")) {
            return Arrival.fixed();
        }
        if (a.equals("poisson")) {
            return Arrival.poisson(1L);
        }
        if (a.startsWith("poisson:")) {
            String seed = a.substring("poisson:".length());
            try {
                return Arrival.poisson(Long.parseLong(seed.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(property + " needs a whole-number seed, was '" + seed + "'");
            }
        }
        throw new IllegalArgumentException(property + " must be fixed or poisson[:SEED], was '" + v + "'");
    }

    private static boolean bool(String property, String v) {
        String b = v.trim().toLowerCase(Locale.ROOT);
        if (!b.equals("true") && !b.equals("false")) {
            throw new IllegalArgumentException(property + " must be true or false, was '" + v + "'");
        }
        return b.equals("true");
    }

    /** Parses {@code 250,500,750} (spaces and {@code _} allowed); the sweep checks the rates make valid loads. */
    static List<Integer> rates(String property, String v) {
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String t = part.trim().replace("_", "");
            try {
                out.add(Integer.parseInt(t));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(property + " must be whole numbers of req/s separated by commas"
                        + " (e.g. 250,500,750); '" + part.trim() + "' in '" + v + "' is not one");
            }
        }
        return List.copyOf(out);
    }

    private static Duration interval(String property, String v) {
        return archlab.timeline.TimelineSettings.checkedInterval(property, duration(property, v));
    }

    /** A warm-up's length: {@code lab.jit.warmup}, {@code lab.sweep.warmup}. */
    private static Duration warmup(String property, String v) {
        return CapacitySweep.checkedWarmup(property, duration(property, v));
    }

    private static int sweepAttempts(String property, String v) {
        try {
            return CapacitySweep.checkedAttempts(property, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a whole number of runs, was '" + v + "'");
        }
    }

    /** A plain decimal amount: {@code 3}, {@code 1.5}, {@code .5}; no sign, exponent, hex or {@code d}/{@code f} suffix. */
    private static final Pattern AMOUNT = Pattern.compile("\\d*\\.?\\d+");

    /** Accepts {@code 3s}, {@code 200ms}, {@code 1.5s}, {@code 2m} or ISO-8601 {@code PT3S}. */
    static Duration duration(String property, String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(amount(t, 2) * 1_000_000L));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 1_000_000_000L));
            }
            if (t.endsWith("m")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 60_000_000_000L));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(property + " must be a duration such as 3s, 200ms or PT3S, was '" + v + "'");
    }

    /** The number before a unit suffix of {@code suffixLength} characters. */
    private static double amount(String t, int suffixLength) {
        String number = t.substring(0, t.length() - suffixLength).trim();
        if (!AMOUNT.matcher(number).matches()) {
            throw new NumberFormatException(number);
        }
        return Double.parseDouble(number);
    }
}

package archlab.hyperfoil;

import archlab.http.OrderHttpServer;
import archlab.loadgen.BookWorkload;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The book's workload written as a Hyperfoil benchmark ({@code .hf.yaml}): one open-model {@code constantRate} phase
 * per operation of the book's mix ({@link BookWorkload#CREATE_PERCENT} % create, {@link BookWorkload#GET_PERCENT} % get,
 * {@link BookWorkload#PAY_PERCENT} % pay of the rate), each first as an unmeasured warm-up phase of the same rate, then
 * as the measured phase named after the operation, started when every warm-up phase terminated (its last request
 * answered or timed out: the measured phases start on a server with none of the warm-up left). Every request
 * carries the lab's {@code X-Deadline-Ms} and Hyperfoil's own timeout of the same length; Hyperfoil starts that
 * timeout when the request is sent, not while it waits for one of the shared connections.
 *
 * <p>Arrivals are at fixed intervals ({@code variance: false}), as the book's load's. Each phase has a session for
 * every user it can start ({@code maxSessions} = rate × length + 1), so Hyperfoil never holds a user back for want of a
 * session (which would make its open model a closed one), and {@code sessionLimitPolicy: FAIL} says so if it ever
 * would; a phase that has not ended {@link #DRAIN_LIMIT} after its length is stopped ({@code maxDuration}).
 *
 * <p>Which orders: a get reads one of the pre-created orders ({@code getIds}) at random. A pay takes an order a create
 * of the same Hyperfoil thread made during the run (the create's answer parsed for its id and pushed onto a map the
 * thread's sessions share; the pay pulls one entry, so no order is paid twice); when no created order is waiting (the
 * warm-up's first pays, or pays that outrun answered creates on a slow server) it falls back to one of {@code payIds}
 * at random, where a repeat is a 409 in the row's 4xx count. wrk and the lab's runner take pre-created orders in turn
 * instead: Hyperfoil has no list read in turn across its sessions.
 *
 * <p>The file is the whole benchmark (ids inline): the same text runs in this JVM ({@link HyperfoilRun}) and, with
 * {@code agents:} listed ({@link Builder#agents}), from Hyperfoil's controller on several machines, each agent
 * offering its share of every phase's rate. Immutable; built by {@link #builder()}.
 */
public final class HyperfoilBenchmark {

    /** The shared map a create's id is pushed onto and a pay pulls from. */
    static final String PAYABLE = "payable";
    /** How long past its length a phase may take to finish its requests before Hyperfoil stops it. */
    public static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private final String name;
    private final URI base;
    private final int ratePerSecond;
    private final Duration warmUp;
    private final Duration duration;
    private final Duration timeout;
    private final int connections;
    private final int threads;
    private final List<String> getIds;
    private final List<String> payIds;
    private final List<String> agents;

    private HyperfoilBenchmark(Builder b) {
        this.name = b.name;
        this.base = b.base;
        this.ratePerSecond = b.ratePerSecond;
        this.warmUp = b.warmUp;
        this.duration = b.duration;
        this.timeout = b.timeout;
        this.connections = b.connections;
        this.threads = b.threads;
        this.getIds = List.copyOf(b.getIds);
        this.payIds = List.copyOf(b.payIds);
        this.agents = List.copyOf(b.agents);
    }

    /** @return a builder with the book's rate (1,500 req/s), 3 s measured after 2 s of warm-up, a 2 s timeout */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the benchmark's name (the file is {@code <name>.hf.yaml}) */
    public String name() {
        return name;
    }

    /** @return the measured phases' length */
    public Duration duration() {
        return duration;
    }

    /** @return each request's timeout and {@code X-Deadline-Ms} */
    public Duration timeout() {
        return timeout;
    }

    /** @return the rate of one operation's phases, users (= requests) per second: its share of the whole rate */
    public int rateOf(String operation) {
        return switch (operation) {
            case BookWorkload.CREATE -> ratePerSecond * BookWorkload.CREATE_PERCENT / 100;
            case BookWorkload.GET -> ratePerSecond * BookWorkload.GET_PERCENT / 100;
            case BookWorkload.PAY -> ratePerSecond * BookWorkload.PAY_PERCENT / 100;
            default -> throw new IllegalArgumentException("not an operation of the book's mix: " + operation);
        };
    }

    /** @return the operations, in the order their phases are written */
    public static List<String> operations() {
        return List.of(BookWorkload.CREATE, BookWorkload.GET, BookWorkload.PAY);
    }

    /** @return one line saying what the file runs, for a report's command column */
    public String describe() {
        return String.format(Locale.ROOT, "Hyperfoil %s.hf.yaml in this JVM: constantRate %d/%d/%d users/s (create/get/pay)"
                        + " for %.1fs after %.1fs unmeasured, %d shared connections, %d threads, timeout %d ms", name,
                rateOf(BookWorkload.CREATE), rateOf(BookWorkload.GET), rateOf(BookWorkload.PAY), duration.toMillis() / 1e3,
                warmUp.toMillis() / 1e3, connections, threads, timeout.toMillis());
    }

    /** @return the benchmark as Hyperfoil's YAML */
    public String yaml() {
        StringBuilder y = new StringBuilder();
        y.append("# The book's workload (archlab.loadgen.BookWorkload) for Hyperfoil, written by archlab.hyperfoil.HyperfoilBenchmark.\n")
                .append("# Open model: each phase starts its users (one request each) on a schedule, whatever the answers do.\n")
                .append("# Run it from Hyperfoil's CLI (start-local, upload, run) or, with agents: listed, on several machines.\n")
                .append("name: ").append(name).append('\n');
        if (!agents.isEmpty()) {
            y.append("agents:\n");
            for (int i = 0; i < agents.size(); i++) {
                y.append("  agent-").append(i + 1).append(": ").append(agents.get(i)).append('\n');
            }
        }
        y.append("http:\n  host: ").append(base).append("\n  sharedConnections: ").append(connections).append('\n')
                .append("threads: ").append(threads).append('\n')
                .append("phases:\n");
        List<String> warmUps = new ArrayList<>();
        for (String op : operations()) {
            warmUps.add("warmup-" + op);
            phase(y, "warmup-" + op, op, warmUp, List.of(), true);
        }
        for (String op : operations()) {
            phase(y, op, op, duration, warmUps, false);
        }
        return y.toString();
    }

    private void phase(StringBuilder y, String phase, String op, Duration length, List<String> after, boolean first) {
        int rate = rateOf(op);
        // a session for every user the phase starts: none is ever held back waiting for one
        long maxSessions = (long) Math.ceil(rate * length.toNanos() / 1e9) + 1;
        y.append("- ").append(phase).append(":\n    constantRate:\n")
                .append("      usersPerSec: ").append(rate).append('\n')
                .append("      variance: false\n")
                .append("      duration: ").append(length.toMillis()).append("ms\n")
                .append("      maxDuration: ").append(length.plus(DRAIN_LIMIT).toMillis()).append("ms\n")
                .append("      maxSessions: ").append(maxSessions).append('\n')
                .append("      sessionLimitPolicy: FAIL\n");
        if (!after.isEmpty()) {
            y.append("      startAfterStrict:\n");
            after.forEach(p -> y.append("      - ").append(p).append('\n'));
        }
        if (!first) {
            y.append("      scenario: *").append(op).append('\n');
            return;
        }
        y.append("      scenario: &").append(op).append("\n      - ").append(op).append(":\n");
        switch (op) {
            case BookWorkload.CREATE -> {
                request(y, "POST", "/orders", op, "{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}");
                y.append("            handler:\n              body:\n                json:\n")
                        .append("                  query: .id\n                  toVar: order\n")
                        .append("        - breakSequence:\n            stringCondition:\n")
                        .append("              fromVar: order\n              isSet: false\n")
                        .append("        - pushSharedMap:\n            key: ").append(PAYABLE).append("\n            vars:\n")
                        .append("            - order\n");
            }
            case BookWorkload.GET -> {
                randomItem(y, getIds);
                request(y, "GET", "/orders/${order}", op, null);
            }
            default -> {
                randomItem(y, payIds);
                y.append("        - pullSharedMap:\n            key: ").append(PAYABLE).append("\n            vars:\n")
                        .append("            - order\n");
                request(y, "POST", "/orders/${order}/pay", op, null);
            }
        }
    }

    private void request(StringBuilder y, String method, String path, String metric, String body) {
        y.append("        - httpRequest:\n            ").append(method).append(": ").append(path).append('\n')
                .append("            metric: ").append(metric).append('\n')
                .append("            timeout: ").append(timeout.toMillis()).append("ms\n")
                .append("            headers:\n              X-Deadline-Ms: \"").append(timeout.toMillis()).append("\"\n");
        if (body != null) {
            y.append("              Content-Type: application/json\n")
                    .append("            body:\n              text: '").append(body).append("'\n");
        }
    }

    private static void randomItem(StringBuilder y, List<String> ids) {
        y.append("        - randomItem:\n            toVar: order\n            list:\n");
        ids.forEach(id -> y.append("            - ").append(id).append('\n'));
    }

    /** Builds a {@link HyperfoilBenchmark}; not thread-safe. */
    public static final class Builder {
        private String name = "book-mix";
        private URI base;
        private int ratePerSecond = 1_500;
        private Duration warmUp = Duration.ofSeconds(2);
        private Duration duration = Duration.ofSeconds(3);
        private Duration timeout = Duration.ofSeconds(2);
        private int connections = 200;
        private int threads = 2;
        private List<String> getIds = List.of();
        private List<String> payIds = List.of();
        private List<String> agents = List.of();

        private Builder() {
        }

        /** @param name letters, digits and dashes: the benchmark's and its file's name */
        public Builder name(String name) {
            if (name == null || !name.matches("[A-Za-z0-9-]{1,64}")) {
                throw new IllegalArgumentException("a benchmark name is 1-64 letters, digits or dashes, was " + name);
            }
            this.name = name;
            return this;
        }

        /** @param base the order server, {@code http://host:port} */
        public Builder base(URI base) {
            if (base == null || !"http".equals(base.getScheme()) || base.getHost() == null || base.getPort() < 1) {
                throw new IllegalArgumentException("an http://host:port server, was " + base);
            }
            this.base = URI.create("http://" + base.getHost() + ":" + base.getPort());
            return this;
        }

        /**
         * @param perSecond the whole mix's rate, requests per second: a multiple of 20, so that each operation's share
         *                  is a whole number per second
         */
        public Builder ratePerSecond(int perSecond) {
            if (perSecond < 20 || perSecond % 20 != 0) {
                throw new IllegalArgumentException("the rate is a multiple of 20 req/s (each operation's share a whole"
                        + " number per second), was " + perSecond);
            }
            this.ratePerSecond = perSecond;
            return this;
        }

        /** @param warmUp the unmeasured phases' length, at least 1 ms */
        public Builder warmUp(Duration warmUp) {
            this.warmUp = positive(warmUp, "warm-up");
            return this;
        }

        /** @param duration the measured phases' length, at least 1 ms */
        public Builder duration(Duration duration) {
            this.duration = positive(duration, "duration");
            return this;
        }

        /** @param timeout each request's timeout and {@code X-Deadline-Ms}, at most the server's maximum */
        public Builder timeout(Duration timeout) {
            positive(timeout, "timeout");
            if (timeout.toMillis() > OrderHttpServer.MAX_DEADLINE_MS) {
                throw new IllegalArgumentException("the server takes deadlines up to " + OrderHttpServer.MAX_DEADLINE_MS
                        + " ms, was " + timeout.toMillis());
            }
            this.timeout = timeout;
            return this;
        }

        /** @param connections HTTP/1.1 connections Hyperfoil keeps to the server, shared out among its agents, 1..10,000 */
        public Builder connections(int connections) {
            if (connections < 1 || connections > 10_000) {
                throw new IllegalArgumentException("connections 1..10000, was " + connections);
            }
            this.connections = connections;
            return this;
        }

        /** @param threads Hyperfoil's event-loop threads (per agent), 1..64 */
        public Builder threads(int threads) {
            if (threads < 1 || threads > 64) {
                throw new IllegalArgumentException("threads 1..64, was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** @param ids pre-created orders the gets read (at least one) */
        public Builder getIds(List<String> ids) {
            this.getIds = ids(ids, "get");
            return this;
        }

        /** @param ids unpaid orders a pay falls back to when no created order is waiting (at least one) */
        public Builder payIds(List<String> ids) {
            this.payIds = ids(ids, "pay");
            return this;
        }

        /** @param agents where Hyperfoil's controller starts its agents ({@code host:port}, SSH); empty for one, in this JVM */
        public Builder agents(List<String> agents) {
            for (String a : agents) {
                if (!a.matches("[A-Za-z0-9][A-Za-z0-9.-]{0,252}(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5]?[0-9]{1,4}))?")) {
                    throw new IllegalArgumentException("an agent is host or host:port, was " + a);
                }
            }
            this.agents = List.copyOf(agents);
            return this;
        }

        /** @return the benchmark */
        public HyperfoilBenchmark build() {
            if (base == null) {
                throw new IllegalStateException("no server: base(URI) first");
            }
            if (getIds.isEmpty() || payIds.isEmpty()) {
                throw new IllegalStateException("the gets and the pays need pre-created orders: getIds and payIds first");
            }
            return new HyperfoilBenchmark(this);
        }

        private static List<String> ids(List<String> ids, String what) {
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("the " + what + "s need at least one order id");
            }
            for (String id : ids) {
                // written into a YAML list and a request path: nothing that could end either
                if (!id.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
                    throw new IllegalArgumentException("an order id is 1-64 letters, digits, '-' or '_', beginning with a"
                            + " letter or digit, was " + id);
                }
            }
            return List.copyOf(ids);
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.toMillis() < 1) {
                throw new IllegalArgumentException(what + " is at least 1 ms, was " + d);
            }
            return d;
        }
    }
}

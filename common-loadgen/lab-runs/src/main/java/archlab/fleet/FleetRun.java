package archlab.fleet;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.PaymentsStub;
import archlab.downstream.remote.DownstreamServer;
import archlab.redis.LabRedis;
import archlab.serve.ServedProcess;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A checkpoint run as a fleet: {@link FleetSettings#instances()} served processes ({@link ServedProcess}) on one PostgreSQL
 * schema and one Redis prefix, their downstream served from this JVM ({@link DownstreamServer}) with a payment provider
 * that refuses charges beyond its quota ({@link PaymentsStub.Quota}), every request spread over the instances. One
 * {@link #run} measures one {@link Variant} — how an instance's first-level cache hears of changes, and where its pay
 * bucket lives — under two loads ({@link FleetLoad}): reads after acknowledged writes (stale reads), then pays at a
 * fixed rate above the quota (what the buckets admit and what the provider did with it), then — Redis paused
 * ({@code CLIENT PAUSE}) — reads and pays under the quota (what the service does while its Redis stalls).
 *
 * <p>The instances are told what they need in system properties ({@link Instance#jvmOptions()}); the checkpoint's fleet
 * fixture reads them back with {@link Instance#fromSystem()}.
 *
 * <p>Not thread-safe: one run at a time (it is a load run).
 */
public final class FleetRun {

    private static final String P = "archlab.fleet.";

    /** How an instance's first-level cache hears of changes. */
    public enum Invalidation {
        /** Only of its own: another instance's change reaches it when its entry expires (the naive fleet). */
        LOCAL,
        /** Of every instance's: each change is published, every instance drops its copy (Redis pub/sub). */
        BROADCAST
    }

    /** Where an instance's pay bucket lives. */
    public enum PayBucket {
        /** In its own heap: each instance admits the quota (the naive fleet). */
        PER_INSTANCE,
        /** In Redis, one for the fleet (Bucket4j's proxy manager). */
        SHARED
    }

    /**
     * A fleet's setup.
     *
     * @param name         the row's name in the report
     * @param invalidation how first levels hear of changes
     * @param payBucket    where the pay buckets live
     */
    public record Variant(String name, Invalidation invalidation, PayBucket payBucket) {
        /** What a fleet does when its code was written for one instance. */
        public static final Variant NAIVE = new Variant("per-instance", Invalidation.LOCAL, PayBucket.PER_INSTANCE);
        /** What it does once invalidation is broadcast and the bucket is shared. */
        public static final Variant SHARED = new Variant("shared", Invalidation.BROADCAST, PayBucket.SHARED);

        public Variant {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(invalidation, "invalidation");
            Objects.requireNonNull(payBucket, "payBucket");
        }
    }

    /**
     * Where the fleet keeps its state, the same for every instance.
     *
     * @param jdbcUrl     the PostgreSQL server
     * @param schema      the fleet's schema there (migrated by the runner)
     * @param redisUrl    the Redis server
     * @param redisPrefix the fleet's key prefix there ({@code archlab.redis.LabRedis#attach})
     */
    public record Stores(String jdbcUrl, String schema, String redisUrl, String redisPrefix) {
        public Stores {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(redisUrl, "redisUrl");
            Objects.requireNonNull(redisPrefix, "redisPrefix");
        }
    }

    /**
     * What one instance is told.
     *
     * @param downstream the runner's stubs
     * @param stores     the fleet's database and Redis
     * @param variant    how its cache and bucket behave
     * @param payLimit   the pay bucket's rate (per second) and burst: the provider's quota
     */
    public record Instance(URI downstream, Stores stores, Variant variant, PaymentsStub.Quota payLimit) {

        /**
         * @return the instance's settings from the system properties {@link #jvmOptions()} set
         * @throws IllegalArgumentException naming the property, when one is missing or not what it must be
         */
        public static Instance fromSystem() {
            URI downstream = parsed("downstream", URI::create);
            if (!"http".equals(downstream.getScheme()) || !"127.0.0.1".equals(downstream.getHost())) {
                throw new IllegalArgumentException("-D" + P + "downstream must be http://127.0.0.1:<port>, was " + downstream);
            }
            return new Instance(downstream,
                    new Stores(required("jdbc.url"), required("schema"), required("redis.url"), required("redis.prefix")),
                    new Variant(required("variant"), parsed("invalidation", Invalidation::valueOf),
                            parsed("pay.bucket", PayBucket::valueOf)),
                    new PaymentsStub.Quota(parsed("pay.rate", Long::parseLong), parsed("pay.burst", Long::parseLong)));
        }

        private static <T> T parsed(String name, java.util.function.Function<String, T> parse) {
            String v = required(name);
            try {
                return parse.apply(v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-D" + P + name + "=" + v + ": " + e.getMessage(), e);
            }
        }

        /** @return the {@code -D} options that hand these settings to a child */
        public List<String> jvmOptions() {
            return List.of("-D" + P + "downstream=" + downstream, "-D" + P + "jdbc.url=" + stores.jdbcUrl(),
                    "-D" + P + "schema=" + stores.schema(), "-D" + P + "redis.url=" + stores.redisUrl(),
                    "-D" + P + "redis.prefix=" + stores.redisPrefix(), "-D" + P + "variant=" + variant.name(),
                    "-D" + P + "invalidation=" + variant.invalidation(), "-D" + P + "pay.bucket=" + variant.payBucket(),
                    "-D" + P + "pay.rate=" + payLimit.chargesPerSecond(), "-D" + P + "pay.burst=" + payLimit.burst());
        }

        /** @return the key of the fleet's one pay bucket in Redis (each variant its own) */
        public String payBucketKey() {
            return stores.redisPrefix() + "bucket:pay:" + variant.name();
        }

        private static String required(String name) {
            String v = System.getProperty(P + name);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("-D" + P + name + " is required: a fleet instance is started by FleetRun");
            }
            return v;
        }
    }

    /**
     * The pays offered above the quota.
     *
     * @param paysPerSecond over the whole fleet
     * @param duration      how long
     */
    public record Flood(int paysPerSecond, Duration duration) {
        public Flood {
            requirePositive("flood", paysPerSecond, duration);
        }
    }

    /**
     * The reads after writes.
     *
     * @param clients  concurrent clients
     * @param duration how long they start new orders
     * @param delays   when, after a pay's acknowledgement, another instance is read
     */
    public record Reads(int clients, Duration duration, List<Duration> delays) {
        public Reads {
            requirePositive("reads", clients, duration);
            delays = List.copyOf(delays);
            if (delays.isEmpty() || delays.stream().anyMatch(Duration::isNegative)) {
                throw new IllegalArgumentException("reads need delays, none negative; were " + delays);
            }
        }
    }

    /**
     * Redis paused: the whole server, every client of it ({@code CLIENT PAUSE}), so a run with it needs a Redis of its
     * own, such as {@code .servers/redis.sh}'s.
     *
     * @param duration       how long requests are sent while it is ({@link RedisStall#MARGIN} more is paused)
     * @param readsPerSecond reads of existing orders meanwhile
     * @param paysPerSecond  pays meanwhile; under the quota
     */
    public record Pause(Duration duration, int readsPerSecond, int paysPerSecond) {
        public Pause {
            requirePositive("pause", readsPerSecond, duration);
            requirePositive("pause", paysPerSecond, duration);
        }
    }

    private static void requirePositive(String what, int count, Duration duration) {
        if (count < 1 || duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " needs a positive rate or count and duration, were " + count
                    + " and " + duration);
        }
    }

    /**
     * How hard and how long.
     *
     * @param mainClass the checkpoint's fleet main, served by {@link ServedProcess}
     * @param instances how many instances, at least 2
     * @param quota     the provider's quota, and each pay bucket's rate and burst
     * @param flood     the pays above the quota
     * @param reads     the reads after writes
     * @param pause     Redis paused
     */
    public record FleetSettings(Class<?> mainClass, int instances, PaymentsStub.Quota quota, Flood flood, Reads reads, Pause pause) {
        public FleetSettings {
            Objects.requireNonNull(mainClass, "mainClass");
            if (instances < 2) {
                throw new IllegalArgumentException("a fleet has at least 2 instances, was " + instances);
            }
            if (flood.paysPerSecond() <= quota.chargesPerSecond()) {
                throw new IllegalArgumentException("the flood must offer more than the quota (" + quota.chargesPerSecond()
                        + "/s), was " + flood.paysPerSecond() + "/s");
            }
            if (pause.paysPerSecond() >= quota.chargesPerSecond()) {
                throw new IllegalArgumentException("the pause's pays must stay under the quota, were " + pause.paysPerSecond() + "/s");
            }
        }

        /**
         * Two instances; a quota of 50 charges/s, bursts of 10; 150 pays/s for 4 s (three times the quota, so that two
         * buckets of the quota each are both full); 16 readers for 6 s reading 0, 10, 100, 1,000 and 3,000 ms after
         * each pay — the last inside the first level's 5 s ± 20 % lifetime, so a copy nobody dropped is still there;
         * Redis paused for 2 s under 100 reads/s and 20 pays/s.
         */
        public static FleetSettings of(Class<?> mainClass) {
            return new FleetSettings(mainClass, 2, new PaymentsStub.Quota(50, 10), new Flood(150, Duration.ofSeconds(4)),
                    new Reads(16, Duration.ofSeconds(6), List.of(Duration.ZERO, Duration.ofMillis(10), Duration.ofMillis(100),
                            Duration.ofSeconds(1), Duration.ofSeconds(3))),
                    new Pause(Duration.ofSeconds(2), 100, 20));
        }
    }

    /**
     * What the provider did during the flood.
     *
     * @param charged          charges it made
     * @param refusedOverQuota calls it refused over its quota (nothing charged)
     */
    public record Provider(long charged, long refusedOverQuota) {
    }

    /** One variant's figures. */
    public record Row(Variant variant, FleetSettings settings, FleetLoad.PayFlood flood, Provider provider,
                      FleetLoad.StaleReads reads, RedisStall.Stall stall) {

        /** @return pays per second that got past the fleet's buckets */
        public double admittedPerSecond() {
            return flood.admitted() / seconds();
        }

        /** @return pays per second offered */
        public double offeredPerSecond() {
            return flood.offered() / seconds();
        }

        /** @return charges per second the provider made */
        public double chargedPerSecond() {
            return provider.charged() / seconds();
        }

        private double seconds() {
            return flood.sent().toNanos() / 1e9;
        }

        /** @return everything the row measured, in one line */
        public String line() {
            FleetLoad.PayFlood stallPays = stall.pays();
            return String.format(Locale.ROOT, "fleet variant=%s instances=%d invalidation=%s pay_bucket=%s quota=%d/s"
                            + " offered=%d offered_per_s=%.1f admitted=%d admitted_per_s=%.1f limited=%d paid=%d failed=%d"
                            + " failed_by_status=%s unanswered=%d provider_charged=%d provider_charged_per_s=%.1f"
                            + " provider_refused=%d read_orders=%d reads_after_pay=%d stale_after_pay=%d last_stale_ms=%.1f"
                            + " not_found_after_create=%d read_unanswered=%d read_pays_refused=%d redis_paused_ms=%d"
                            + " stall_reads=%d stall_reads_ok=%d stall_warm_read_p50_ms=%.3f stall_cold_read_p50_ms=%.1f"
                            + " stall_read_max_ms=%.1f stall_pays=%d stall_paid=%d stall_pays_limited=%d stall_pays_failed=%d",
                    variant.name(), settings.instances(), variant.invalidation().name().toLowerCase(Locale.ROOT),
                    variant.payBucket().name().toLowerCase(Locale.ROOT), settings.quota().chargesPerSecond(),
                    flood.offered(), offeredPerSecond(), flood.admitted(), admittedPerSecond(), flood.limited(), flood.paid(),
                    flood.failed(), flood.failures().byStatus().toString().replace(" ", ""), flood.unanswered(),
                    provider.charged(), chargedPerSecond(), provider.refusedOverQuota(), reads.orders(), reads.readsAfterPay(),
                    reads.staleAfterPay(), reads.lastStaleMillis(), reads.notFoundAfterCreate(), reads.skipped().unanswered(),
                    reads.skipped().paysRefused(), stall.paused().toMillis(), stall.reads().sent(), stall.reads().answered(),
                    stall.warmReads().p50Micros() / 1000.0, stall.coldReads().p50Micros() / 1000.0,
                    Math.max(stall.warmReads().maxMicros(), stall.coldReads().maxMicros()) / 1000.0, stallPays.offered(),
                    stallPays.paid(), stallPays.limited(), stallPays.failed() + stallPays.unanswered());
        }
    }

    private FleetRun() {
    }

    /**
     * Starts the fleet as {@code variant} says, on {@code stores}, puts the three loads on it, stops it (SIGTERM: each
     * instance's relay finishes its pass).
     *
     * @param out where the progress lines and the row's line go
     */
    public static Row run(FleetSettings settings, Variant variant, Stores stores, Consumer<String> out) throws InterruptedException {
        Downstream downstream = Downstream.create(DownstreamSettings.BOOK, settings.quota());
        try (DownstreamServer stubs = DownstreamServer.start(downstream)) {
            Instance instance = new Instance(stubs.baseUri(), stores, variant, settings.quota());
            List<String> options = new ArrayList<>(ServedProcess.DEFAULT_JVM_OPTIONS);
            options.addAll(instance.jvmOptions());
            List<ServedProcess> fleet = startAll(settings, options);
            try (FleetLoad load = new FleetLoad(fleet.stream().map(ServedProcess::baseUri).toList())) {
                out.accept("fleet " + variant.name() + ": " + fleet.size() + " instances at " + load.instances());
                FleetLoad.StaleReads reads = load.staleReads(settings.reads().clients(), settings.reads().duration(),
                        settings.reads().delays());
                long chargedBefore = downstream.ledger().charges();
                long refusedBefore = downstream.payments().refusedOverQuota();
                FleetLoad.PayFlood flood = load.payFlood(settings.flood().paysPerSecond(), settings.flood().duration(), 16);
                Provider provider = new Provider(downstream.ledger().charges() - chargedBefore,
                        downstream.payments().refusedOverQuota() - refusedBefore);
                LockSupport.parkNanos(Duration.ofSeconds(1).toNanos()); // the provider's quota refills
                RedisStall.Stall stall;
                try (LabRedis pauser = LabRedis.attach(stores.redisUrl(), stores.redisPrefix(), Duration.ofSeconds(2))) {
                    Pause pause = settings.pause();
                    try {
                        stall = RedisStall.run(load, load.floodOrders(), pause.duration(), pause.readsPerSecond(),
                                pause.paysPerSecond(), paused -> pauser.commands().clientPause(paused.toMillis()));
                    } finally {
                        pauser.commands().dispatch(io.lettuce.core.protocol.CommandType.CLIENT,
                                new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                                new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("UNPAUSE"));
                    }
                }
                Row row = new Row(variant, settings, flood, provider, reads, stall);
                out.accept(row.line());
                return row;
            } finally {
                for (ServedProcess p : fleet) {
                    p.close();
                }
            }
        }
    }

    /** Starts every instance at once (a JVM's start is seconds); closes those started when one fails. */
    private static List<ServedProcess> startAll(FleetSettings settings, List<String> options) {
        List<CompletableFuture<ServedProcess>> starting = new ArrayList<>();
        for (int i = 0; i < settings.instances(); i++) {
            starting.add(CompletableFuture.supplyAsync(() -> ServedProcess.builder(settings.mainClass()).jvmOptions(options).start()));
        }
        List<ServedProcess> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<ServedProcess> f : starting) {
            try {
                started.add(f.join());
            } catch (CompletionException e) {
                failure = failure == null && e.getCause() instanceof RuntimeException r ? r : failure == null
                        ? new IllegalStateException(e.getCause()) : failure;
            }
        }
        if (failure != null) {
            started.forEach(ServedProcess::close);
            throw failure;
        }
        return started;
    }
}

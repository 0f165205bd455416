package archlab.order;

import archlab.clock.NanoClock;
import archlab.db.LabDatabase;
import archlab.downstream.DownstreamCounts;
import archlab.downstream.remote.RemoteDownstream;
import archlab.fleet.FleetRun;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.loadgen.Workload;
import archlab.redis.LabRedis;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.request.RequestContext;
import archlab.run.LabFixture;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One instance of this checkpoint in a fleet ({@link FleetServe}, started by {@link InstancesTest} through
 * {@link FleetRun}): the chapter's service on the fleet's PostgreSQL schema, its first level (Caffeine) in front of the
 * fleet's Redis second level, its downstream the runner's stubs, its pay bucket its own or the fleet's — as
 * {@link FleetRun.Instance} says. Its HTTP front answers a read with the order's status, so the runner can tell a stale
 * read.
 */
final class FleetLab implements LabFixture {

    private final FleetRun.Instance instance;
    private final LabDatabase database;
    private final LabRedis redis;
    private final OrderService service;
    private final BookWorkload workload;

    FleetLab() {
        this.instance = FleetRun.Instance.fromSystem();
        RemoteDownstream remote = RemoteDownstream.connect(instance.downstream());
        this.database = LabDatabase.attach(instance.stores().jdbcUrl(), instance.stores().schema(), LabDatabase.DEFAULT_POOL_SIZE);
        LabRedis attached = null;
        OrderService built = null;
        try {
            attached = LabRedis.attach(instance.stores().redisUrl(), instance.stores().redisPrefix(), LabRedis.DEFAULT_TIMEOUT);
            OrderServiceAssembly parts = service(instance, remote, database, attached);
            built = parts.service();
            parts.relay().start();
            this.workload = BookWorkload.prepare(new StatusTarget(built), 1);
        } catch (Exception e) {
            if (built != null) {
                built.close();
            }
            if (attached != null) {
                attached.close();
            }
            database.close();
            throw new IllegalStateException("could not start this fleet instance: " + e.getMessage(), e);
        }
        this.redis = attached;
        this.service = built;
    }

    /** The chapter's service on the fleet's stores, its first level hearing the others or not, its pay bucket its own or the fleet's. */
    private static OrderServiceAssembly service(FleetRun.Instance instance, RemoteDownstream remote, LabDatabase database, LabRedis redis) {
        OrderTable table = new RedisCachedOrderTable(new PostgresOrderTable(database.dataSource(), NanoClock.SYSTEM),
                redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT
                        .withBroadcast(instance.variant().invalidation() == FleetRun.Invalidation.BROADCAST));
        OrderServiceSettings settings = OrderServiceSettings.DEFAULT.withPayLimit(
                new RateLimiter.Settings(instance.payLimit().chargesPerSecond(), instance.payLimit().burst()));
        if (instance.variant().payBucket() == FleetRun.PayBucket.SHARED) {
            // each take reads the bucket's state and compares-and-swaps it in Redis, on the cache's small budget; the key
            // expires 10 s after the bucket would be full again
            settings = settings.withPayBucket(new RateLimiter.SharedBucket(Bucket4jLettuce.casBasedBuilder(
                            redis.connection(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE)))
                    .requestTimeout(redis.timeout())
                    .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                    .build(), instance.payBucketKey()));
        }
        return OrderServiceAssembly.assemble(remote.inventory(), remote.payments(), remote.notifier(), settings, table);
    }

    /** The book's port, whose reads say the order's status (the fleet's runner compares it with what it was answered). */
    private static final class StatusTarget implements OrderTarget {
        private final OrderService service;
        private final OrderServiceTarget book;

        StatusTarget(OrderService service) {
            this.service = service;
            this.book = new OrderServiceTarget(service);
        }

        @Override
        public String create(RequestContext ctx) {
            return book.create(ctx);
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
            book.get(ctx, orderId);
        }

        @Override
        public Optional<String> status(RequestContext ctx, String orderId) {
            return Optional.of(service.get(ctx, orderId).status().name());
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
            book.pay(ctx, orderId);
        }
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        return DownstreamCounts.builder().build(); // the stubs, and their counters, are the runner's
    }

    @Override
    public MoneyEvidence money() {
        throw new UnsupportedOperationException("a fleet's books are the runner's (FleetRun)");
    }

    @Override
    public List<ReportLine> extra() {
        return List.of(new ReportLine("downstream_latency", "the runner's stubs at " + instance.downstream()),
                new ReportLine("scenario", "fleet instance: variant=" + instance.variant().name() + " schema="
                        + database.schema() + " redis_prefix=" + redis.prefix()));
    }

    /** What SIGTERM does: the relay stops after its pass in progress. */
    @Override
    public void afterRun() {
        service.close();
    }

    @Override
    public void close() {
        service.close();
        redis.close();
        database.close();
    }
}

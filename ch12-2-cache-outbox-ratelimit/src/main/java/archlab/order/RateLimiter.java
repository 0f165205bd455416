package archlab.order;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.trace.Span;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A token bucket (Bucket4j) at the entry of one operation: a call takes one token or is refused at once
 * with a {@link RateLimitedException} that says how long until the next token.
 *
 * <p>The trap it fixes: ch12-1 let every request in and queued what it could not serve, until the queue
 * grew past the timeout and requests failed late, after using the lock, the downstream and the client's
 * patience. A token bucket refuses the excess at the door, in microseconds, and says when to come back.
 *
 * <p>Where it sits, and why: in front of <b>pay</b> alone. Pay is the only operation that spends someone
 * else's capacity, the payment provider's quota (assumed here: {@link Settings#DEFAULT} 400 charges/s,
 * bursts of 100). Create and get cost the service microseconds once the lock is short; limiting them would
 * refuse work the service can do. The bucket is checked before anything else, so a refused pay reads no
 * order, takes no lock and calls no downstream.
 *
 * <p>One bucket per instance admits the quota once per instance: two instances behind a balancer admit twice what the
 * provider allows. A fleet shares one bucket instead ({@link SharedBucket}: Bucket4j's proxy of a bucket kept in Redis,
 * every take a compare-and-swap there). When the shared bucket cannot be reached the limiter <b>fails closed</b>: the
 * pay is refused ({@link #unavailable()} counts it). The quota is the provider's, and an instance that cannot see the
 * fleet's bucket cannot know it is within it; the cost is that pay depends on Redis, and a Redis outage refuses every
 * pay until it is back.
 *
 * <p>A bucket of the instance's own takes its time from the injected {@link NanoClock} (Bucket4j's custom
 * {@link TimeMeter}), so a test advances a fake clock instead of sleeping; a shared one keeps the time of its proxy
 * manager (the wall clock of each instance, by default).
 *
 * <p>Thread-safety: {@link #acquire} may be called from any number of threads (Bucket4j's lock-free bucket, or its
 * proxy's compare-and-swap).
 */
public final class RateLimiter {

    /** Segment: taking a token. */
    public static final String LIMITER = "limiter";

    /**
     * @param ratePerSecond tokens added per second, greedily (spread evenly, not once a second); at least 1
     * @param burst         the bucket's capacity: how many calls may come at once after a quiet spell; at least 1
     */
    public record Settings(long ratePerSecond, long burst) {

        /** The payment provider's quota: 400 charges/s, bursts of 100. The book's load pays 375 orders/s. */
        public static final Settings DEFAULT = new Settings(400, 100);

        public Settings {
            if (ratePerSecond < 1) {
                throw new IllegalArgumentException("ratePerSecond must be at least 1, was " + ratePerSecond);
            }
            if (burst < 1) {
                throw new IllegalArgumentException("burst must be at least 1, was " + burst);
            }
        }
    }

    /**
     * Where a fleet's one bucket lives.
     *
     * @param buckets the proxy manager of the store the bucket is in (Bucket4j's Redis integration)
     * @param key     the bucket's key there: the same on every instance
     */
    public record SharedBucket(ProxyManager<String> buckets, String key) {
        public SharedBucket {
            Objects.requireNonNull(buckets, "buckets");
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("key must not be blank, was '" + key + "'");
            }
        }
    }

    private final String operation;
    private final Settings settings;
    private final Bucket bucket;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder unavailable = new LongAdder();
    private final boolean shared;

    /**
     * @param operation the limited operation's name, for the error message, e.g. "pay"
     * @param settings  rate and burst; the bucket starts full
     * @param clock     the bucket's time, nanoseconds
     */
    public RateLimiter(String operation, Settings settings, NanoClock clock) {
        this(operation, settings, clock, null);
    }

    /**
     * @param operation the limited operation's name, for the error message, e.g. "pay"
     * @param settings  rate and burst; the bucket starts full (a shared one: when the first instance takes from it)
     * @param clock     a local bucket's time, nanoseconds (a shared one keeps the time of its proxy manager)
     * @param shared    the fleet's bucket, or {@code null} for one of this instance's own
     */
    public RateLimiter(String operation, Settings settings, NanoClock clock, SharedBucket shared) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.settings = Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(clock, "clock");
        TimeMeter time = new TimeMeter() {
            @Override
            public long currentTimeNanos() {
                return clock.nanoTime();
            }

            @Override
            public boolean isWallClockBased() {
                return false;
            }
        };
        this.shared = shared != null;
        this.bucket = shared != null
                ? shared.buckets().builder().build(shared.key(), () -> BucketConfiguration.builder()
                        .addLimit(limit -> limit.capacity(settings.burst()).refillGreedy(settings.ratePerSecond(), Duration.ofSeconds(1)))
                        .build())
                : Bucket.builder()
                        .addLimit(limit -> limit.capacity(settings.burst()).refillGreedy(settings.ratePerSecond(), Duration.ofSeconds(1)))
                        .withCustomTimePrecision(time)
                        .build();
    }

    /**
     * Takes one token, marked as segment {@value #LIMITER}.
     *
     * @throws RateLimitedException if the bucket is empty; its {@code retryAfter} is the wait until the next token
     */
    // tag::acquire[]
    public void acquire(RequestContext ctx) {
        ConsumptionProbe probe;
        try (Span s = ctx.span(LIMITER)) {
            probe = bucket.tryConsumeAndReturnRemaining(1);
        } catch (RuntimeException bucketUnreachable) { // a shared bucket's store failed or timed out: fail closed
            unavailable.increment();
            rejected.increment();
            throw new RateLimitedException(operation, settings.ratePerSecond(), settings.burst(), UNAVAILABLE_RETRY);
        }
        if (probe.isConsumed()) {
            admitted.increment();
            return;
        }
        rejected.increment();
        throw new RateLimitedException(operation, settings.ratePerSecond(), settings.burst(),
                Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }
    // end::acquire[]

    /** How long a pay refused for an unreachable shared bucket is told to wait. */
    static final Duration UNAVAILABLE_RETRY = Duration.ofSeconds(1);

    /** @return calls refused because the shared bucket could not be reached (part of {@link #rejected()}) */
    public long unavailable() {
        return unavailable.sum();
    }

    /** @return whether the bucket is the fleet's ({@link SharedBucket}) rather than this instance's */
    public boolean shared() {
        return shared;
    }

    /** @return calls that got a token */
    public long admitted() {
        return admitted.sum();
    }

    /** @return calls refused */
    public long rejected() {
        return rejected.sum();
    }

    /** @return tokens in the bucket now */
    public long availableTokens() {
        return bucket.getAvailableTokens();
    }

    public Settings settings() {
        return settings;
    }
}

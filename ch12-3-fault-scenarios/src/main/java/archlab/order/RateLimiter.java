package archlab.order;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.trace.Span;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
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
 * <p>Time comes from the injected {@link NanoClock} (Bucket4j's custom {@link TimeMeter}), so a test
 * advances a fake clock instead of sleeping.
 *
 * <p>Thread-safety: {@link #acquire} may be called from any number of threads (Bucket4j's lock-free bucket).
 */
public final class RateLimiter {

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

    private final String operation;
    private final Settings settings;
    private final Bucket bucket;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();

    /**
     * @param operation the limited operation's name, for the error message, e.g. "pay"
     * @param settings  rate and burst; the bucket starts full
     * @param clock     the bucket's time, nanoseconds
     */
    public RateLimiter(String operation, Settings settings, NanoClock clock) {
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
        this.bucket = Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.burst()).refillGreedy(settings.ratePerSecond(), Duration.ofSeconds(1)))
                .withCustomTimePrecision(time)
                .build();
    }

    /**
     * Takes one token, marked as segment {@value OrderService#LIMITER}.
     *
     * @throws RateLimitedException if the bucket is empty; its {@code retryAfter} is the wait until the next token
     */
    // tag::acquire[]
    public void acquire(RequestContext ctx) {
        ConsumptionProbe probe;
        try (Span s = ctx.span(OrderService.LIMITER)) {
            probe = bucket.tryConsumeAndReturnRemaining(1);
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

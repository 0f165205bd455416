package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The statics attack: a solution that counts in a static how many services were built can tell the claims apart
 * (the third service built is claim three's) and answer each one on its own. Loaded afresh for every claim, it counts
 * only the services of that claim.
 */
class IsolatedCheckpointTest {

    private static final String COUNTING = """
            package archlab.order;
            import archlab.claims.Checkpoint;
            import archlab.claims.OrderPort;
            import archlab.downstream.Inventory;
            import archlab.downstream.Notifier;
            import archlab.downstream.Payments;
            import archlab.request.RequestContext;
            import java.util.List;
            final class CountingCheckpoint implements Checkpoint {
                static int built;
                @Override public OrderPort open(Inventory inventory, Payments payments, Notifier notifier) {
                    int n = ++built;
                    return new OrderPort() {
                        public OrderView create(RequestContext ctx, String c, List<Line> l) { return null; }
                        public OrderView get(RequestContext ctx, String id) { return new OrderView(id, "CREATED", 0, n); }
                        public OrderView pay(RequestContext ctx, String id) { return null; }
                        public boolean isPaid(String id) { return false; }
                        public void close() { }
                    };
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    @DisplayName("a static of the solution starts anew with every claim, and is shared by the services of one claim")
    void staticsStartAnewPerClaim() {
        SourceCompiler.compile(Map.of("archlab/order/CountingCheckpoint.java", COUNTING), dir);
        IsolatedCheckpoint isolated = new IsolatedCheckpoint(List.of(dir), "archlab.order.CountingCheckpoint");

        Checkpoint claimOne = isolated.forClaim();
        int first = builtSoFar(claimOne);
        int second = builtSoFar(claimOne);
        int otherClaim = builtSoFar(isolated.forClaim());

        assertThat(List.of(first, second, otherClaim)).containsExactly(1, 2, 1);
    }

    private static int builtSoFar(Checkpoint checkpoint) {
        try (OrderPort port = checkpoint.open(null, null, null)) {
            return port.get(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(1)), "x").version();
        }
    }
}

package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.BookWorkload;
import archlab.loadgen.RunResult;
import archlab.run.LabRun;
import archlab.report.MoneyEvidence;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Ablation under the baseline's load: this checkpoint with the read cache off, and with the pay limit
 * off, each everything else equal. What each one buys is read from the side-by-side table; asserted
 * here is only what holds on any machine: the refactor without the part still serves the load correctly,
 * and the part's own effect (table reads, refusals) is as stated. Reports:
 * {@code target/reports/ablation-no-cache.txt} and {@code ablation-no-limiter.txt}.
 */
@EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "3 s load runs: mvn test -Dbaseline")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Order(3)
class AblationOpenLoopTest {

    private LabRun.Reports noCache;
    private LabRun.Reports noLimiter;

    @BeforeAll
    void runBothAblations() {
        archlab.run.testing.StoreUnderTest.inMemoryOnly("ablation", "it takes the cache or the pay limit away from"
                + " the book's service; another store or cache would be judged with it");
        noCache = LabRun.named(BookLab.MODULE, "ablation-no-cache").withOverrides()
                .run(() -> new BookLab(OrderServiceSettings.DEFAULT.withCache(null)));
        noLimiter = LabRun.named(BookLab.MODULE, "ablation-no-limiter").withOverrides()
                .run(() -> new BookLab(OrderServiceSettings.DEFAULT.withPayLimit(null)));
    }

    @Test
    @DisplayName("without the cache or without the limiter the book's load is still served: nothing times out, fails or is rejected; money and notifications add up")
    void bothAblationsServeTheLoad() {
        for (LabRun.Reports o : List.of(noCache, noLimiter)) {
            RunResult run = o.run();
            MoneyEvidence money = o.report().money();
            assertThat(run.offered()).isEqualTo(run.spec().plannedRequests());
            assertThat(run.timedOut()).as(o.report().name() + " timed out").isZero();
            assertThat(run.failed()).as(o.report().name() + " failed " + run.failureCauses()).isZero();
            assertThat(run.rejected()).isZero();
            assertThat(money.chargedButNotPaid()).isZero();
            assertThat(money.doubleCharges()).isZero();
            BaselineOpenLoopTest.assertNotifiedOnce(o.report());
        }
    }

    @Test
    @DisplayName("without the cache every get reads the table; with it, repeated gets are answered without the table")
    void theCacheKeepsRepeatedGetsOffTheTable() {
        long getsWithout = noCache.run().operations().get(BookWorkload.GET).offered();
        assertThat(noCache.report().extraByName().get("table_reads")).isEqualTo(getsWithout);
        long getsWith = noLimiter.run().operations().get(BookWorkload.GET).offered();
        assertThat((Long) noLimiter.report().extraByName().get("table_reads")).isLessThan(getsWith);
        assertThat((Long) noLimiter.report().extraByName().get("cache_hits")).isPositive();
    }
}

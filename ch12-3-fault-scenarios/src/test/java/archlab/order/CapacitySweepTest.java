package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.DownstreamCounts;
import archlab.downstream.DownstreamSettings;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.Workload;
import archlab.run.CapacitySweep;
import archlab.run.LabFixture;
import archlab.run.LabRun;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.report.SweepReport;
import archlab.report.SweepRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The checkpoint's capacity curve, twice: the book's mix offered at 250 … 32,000 req/s (3 s each, a fresh
 * service per rate), once with the pay limiter lifted — so the sweep finds the service's own limit — and once
 * with it in place, to show what it keeps flat.
 *
 * <p><b>The trap.</b> A sweep of a rate-limited service measures the limiter, not the service: past
 * 4 × 400 = 1,600 req/s the limiter rejects pays, goodput falls below 99% and the "knee" is the quota's,
 * whatever the machine. Lifting the limiter is what shows how far the short lock and the idempotent charge
 * moved the knee from ch12-1's lock bound of 500 req/s; putting it back shows the other half of the lesson:
 * whatever is offered, the provider never sees more than its quota, and p99 of what is served stays flat.
 *
 * <p>On a 2-core machine the limiter-lifted knee is set by CPU — the generator and the service share the two
 * cores, and each request is a virtual thread that sleeps through its downstream calls — not by a lock: the
 * report's cpu and send-lag columns past the knee are the evidence. The assertions are bounds that hold on any
 * machine; the knees are printed, not asserted.
 *
 * <p>Run {@code mvn -pl <this module> test -Dsweep -Dtest=CapacitySweepTest -Dsurefire.failIfNoSpecifiedTests=false}
 * (about 2 min); {@code -Dlab.sweep.rates=500,1000,2000 -Dlab.sweep.duration=2s} for a shorter sweep. The
 * reports land in {@code target/reports/sweep-limiter-lifted-<module>.txt} and {@code sweep-<module>.txt}
 * (+ .json, which {@code archlab.figures.Figures} charts as two lines per checkpoint).
 */
@EnabledIfSystemProperty(named = "sweep", matches = ".*", disabledReason = "two ~1 min capacity sweeps: mvn test -Dsweep")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CapacitySweepTest {

    /** The share of pays in the book's mix. */
    private static final double PAY_SHARE = 0.25;
    /**
     * The default rates and four more: with the limiter lifted the short-lock service keeps up at 8,000 req/s on
     * 2 cores, so the sweep goes on until something gives.
     */
    private static final List<Integer> RATES = java.util.stream.Stream.concat(CapacitySweep.DEFAULT_RATES.stream(),
            java.util.stream.Stream.of(12_000, 16_000, 24_000, 32_000)).toList();
    private static final RateLimiter.Settings LIMIT = OrderServiceSettings.DEFAULT.payLimit();

    private CapacitySweep lifted;
    private SweepReport liftedReport;
    private CapacitySweep limited;
    private SweepReport limitedReport;
    /** The fixture of each measured rate of the limited sweep, in rate order (the warm-up's dropped). */
    private final List<TimedLab> limitedLabs = new ArrayList<>();
    /** ch12-1's pay held its lock across all three downstream calls: inventory + payment + notify, ns. */
    private long lockHoldNanos;

    @BeforeAll
    void runBothSweeps() {
        BookLab probe = new BookLab();
        long payFloorNanos = probe.payFloorNanos();
        lockHoldNanos = probe.inventoryLatency.plus(probe.paymentLatency).plus(probe.notifyLatency).toNanos();
        lifted = CapacitySweep.of(BookLab.MODULE, LabRun.named(BookLab.MODULE, "sweep").withOverrides().spec(), payFloorNanos)
                .name("sweep-limiter-lifted").rates(RATES).withOverrides();
        int liftedPool = poolFor(lifted);
        liftedReport = lifted.run(() -> new BookLab(DownstreamSettings.BOOK, OrderServiceSettings.DEFAULT.withPayLimit(null), liftedPool));

        limited = CapacitySweep.of(BookLab.MODULE, LabRun.named(BookLab.MODULE, "sweep").withOverrides().spec(), payFloorNanos)
                .name("sweep").rates(RATES).withOverrides();
        int limitedPool = poolFor(limited);
        List<TimedLab> all = new ArrayList<>();
        limitedReport = limited.run(() -> {
            TimedLab lab = new TimedLab(new BookLab(DownstreamSettings.BOOK, OrderServiceSettings.DEFAULT, limitedPool));
            all.add(lab);
            return lab;
        });
        limitedLabs.addAll(all.subList(all.size() - limited.rates().size(), all.size()));
    }

    @Test
    @DisplayName("every rate of both sweeps offers exactly rate × duration requests and finishes them all")
    void everyRateOffersTheWholeLoad() {
        for (Swept swept : List.of(new Swept(lifted, liftedReport), new Swept(limited, limitedReport))) {
            CapacitySweep s = swept.sweep();
            SweepReport r = swept.report();
            assertThat(r.rows()).extracting(SweepRow::ratePerSecond).containsExactlyElementsOf(s.rates());
            for (SweepRow row : r.rows()) {
                long planned = Math.multiplyExact(row.ratePerSecond(), s.duration().toNanos()) / 1_000_000_000L;
                assertThat(row.offered()).as("%s offered at %d req/s", r.name(), row.ratePerSecond()).isEqualTo(planned);
                assertThat(row.unfinished()).as("%s unfinished at %d req/s", r.name(), row.ratePerSecond()).isZero();
            }
        }
    }

    @Test
    @DisplayName("with the limiter lifted nothing is rejected at any rate: the sweep measures the service, not the quota")
    void liftedSweepRejectsNothing() {
        for (SweepRow row : liftedReport.rows()) {
            assertThat(row.rejected()).as("rejected at %d req/s", row.ratePerSecond()).isZero();
        }
        printKnee(liftedReport);
    }

    @Test
    @DisplayName("with the limiter in place, at every rate the PAID orders stay within the quota: burst + 400/s × the time pays could acquire (from the run's start until its last request ended)")
    void limiterCapsPaysAtEveryRate() {
        for (int i = 0; i < limitedLabs.size(); i++) {
            int rate = limited.rates().get(i);
            TimedLab lab = limitedLabs.get(i);
            long quota = LIMIT.burst() + (long) Math.ceil(LIMIT.ratePerSecond() * lab.runNanos() / 1e9);
            assertThat(lab.money().paidOrders()).as("PAID at %d req/s (run %d ms)", rate, lab.runNanos() / 1_000_000L)
                    .isLessThanOrEqualTo(quota);
        }
        printKnee(limitedReport);
    }

    @Test
    @DisplayName("with the limiter in place, every rate that offers over 1.5 × the quota (400/s × 3 s + 100) in pays has rejections")
    void limiterRejectsOverQuota() {
        long quota = LIMIT.ratePerSecond() * limited.duration().toSeconds() + LIMIT.burst();
        for (SweepRow row : limitedReport.rows()) {
            if (PAY_SHARE * row.offered() > 1.5 * quota) {
                assertThat(row.rejected()).as("rejected at %d req/s", row.ratePerSecond()).isPositive();
            }
        }
    }

    /**
     * The trap inside the trap: the book's 4,000 pre-created orders run out at 6,000 req/s (4,500 pays in 3 s),
     * and a sweep that stops there has found the workload's limit ({@code pool_exh}), not the service's. Each
     * rate gets enough orders for the highest rate's pays, with a margin for the mix's randomness.
     */
    private static int poolFor(CapacitySweep sweep) {
        int maxRate = sweep.rates().get(sweep.rates().size() - 1);
        double pays = PAY_SHARE * maxRate * sweep.duration().toNanos() / 1e9;
        return Math.max(BookWorkload.DEFAULT_POOL, (int) Math.ceil(1.2 * pays) + 100);
    }

    /**
     * A BookLab that notes when its run started and when its last request ended ({@link #afterRun} is called
     * once the runner has waited for every request), so the test knows how long pays could take tokens: a pay
     * planned just before the end of the 3 s may start a little late, and takes a token then.
     */
    private static final class TimedLab implements LabFixture {
        private final BookLab lab;
        private long startedNanos;
        private long endedNanos;

        TimedLab(BookLab lab) {
            this.lab = lab;
        }

        @Override
        public Workload workload() {
            return lab.workload();
        }

        @Override
        public void beforeRun() {
            lab.beforeRun();
            startedNanos = System.nanoTime();
        }

        @Override
        public void afterRun() {
            endedNanos = System.nanoTime();
            lab.afterRun();
        }

        /** @return from the start of the run until its last request ended, ns */
        long runNanos() {
            return endedNanos - startedNanos;
        }

        @Override
        public DownstreamCounts downstreamCounts() {
            return lab.downstreamCounts();
        }

        @Override
        public MoneyEvidence money() {
            return lab.money();
        }

        @Override
        public List<ReportLine> extra() {
            return lab.extra();
        }
    }

    private record Swept(CapacitySweep sweep, SweepReport report) {
    }

    /** Prints the knee beside ch12-1's lock bound, 1 / (pay share × Σ downstream latencies) = 500 req/s at 2/4/2 ms. */
    private void printKnee(SweepReport r) {
        double lockBound = 1e9 / (PAY_SHARE * lockHoldNanos);
        if (r.knee().found()) {
            System.out.printf(Locale.ROOT, "[sweep] %s %s: knee %d req/s (%.1f × ch12-1's lock bound of %.0f req/s)%n",
                    r.module(), r.name(), r.knee().ratePerSecond(), r.knee().ratePerSecond() / lockBound, lockBound);
        } else {
            System.out.printf(Locale.ROOT, "[sweep] %s %s: no knee among the rates swept%n", r.module(), r.name());
        }
    }
}

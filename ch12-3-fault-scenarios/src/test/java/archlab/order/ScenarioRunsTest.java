package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.DeadlineOverrun;
import archlab.loadgen.LoadSpec;
import archlab.run.LabRun;
import archlab.report.MoneyEvidence;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioProgress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Chapter 12.3's scenarios — normal, slow downstream, failing downstream, long outage, retry storm — against this checkpoint,
 * under the book's load. Each run saves its report as {@code target/reports/scenario-<name>.json}; the table
 * of every checkpoint's rows is built from those reports by the {@code book} module: {@code mvn test -Dscenarios}
 * at the root, or {@code mvn -pl <module>,book test -Dscenarios} for this module's rows alone.
 */
@EnabledIfSystemProperty(named = "scenarios", matches = ".*", disabledReason = "five 3 s load runs: mvn test -Dscenarios (or -Dscenarios=retry-storm for one)")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScenarioRunsTest {

    private static final String MODULE = BookLab.MODULE;

    private final Map<String, LabRun.Reports> outcomes = new LinkedHashMap<>();

    @BeforeAll
    void runTheCatalogue() {
        List<Scenario> catalogue = ScenarioProgress.selected(System.getProperty("scenarios"));
        for (int i = 0; i < catalogue.size(); i++) {
            Scenario s = catalogue.get(i);
            System.out.println(ScenarioProgress.progressLine(MODULE, ScenarioProgress.checkpointsOfTheBuild(MODULE), s.name(), i, catalogue.size()));
            outcomes.put(s.name(), LabRun.named(MODULE, ScenarioProgress.reportName(s)).spec(s.load(LoadSpec.book()))
                    .withOverrides().profiled(false)
                    .output(line -> { }).run(() -> new BookLab(s)));
            System.out.println(outcomes.get(s.name()).report().bookLine1());
            System.out.println(outcomes.get(s.name()).report().bookLine2());
            ScenarioProgress.recovery(s, outcomes.get(s.name()).run()).ifPresent(r -> System.out.println(r.line()));
            ScenarioProgress.serverLines(s, outcomes.get(s.name()).report().extraByName(), outcomes.get(s.name()).run().spec().duration())
                    .forEach(System.out::println);
        }
    }

    @Test
    @DisplayName("every scenario offers exactly rate × duration requests and finishes them all")
    void everyScenarioOffersTheWholeLoad() {
        outcomes.values().forEach(o -> {
            assertThat(o.run().offered()).isEqualTo(o.run().spec().plannedRequests());
            assertThat(o.run().unfinished()).isZero();
        });
    }

    /**
     * How far past its deadline a caller may be answered: the runner's own scheduling and a virtual thread's
     * wake-up on 2 busy cores, not the service. Each downstream call is cut at its deadline and nothing after it
     * waits for a downstream, so the overrun is the time from the deadline to the answer being recorded.
     */
    static final Duration OVERRUN_BOUND = Duration.ofMillis(5);

    @Test
    @DisplayName("under every scenario the service answers every request (every attempt, where callers retry) within a few ms of its deadline (per-call budgets, compensation off the request path, a payment bulkhead that waits on the caller's deadline); not judged where the machine's longest stall could explain the overrun, as the chaos check judges it")
    void noCallerHeldPastItsDeadline() {
        List<String> stalled = new java.util.ArrayList<>();
        outcomes.forEach((name, o) -> {
            DeadlineOverrun overrun = DeadlineOverrun.of(o.run(), OVERRUN_BOUND);
            switch (overrun.verdict()) {
                case KEPT -> { }
                // the machine stalled the run's own threads for as long as the overrun exceeds the bound: not judged
                case NOT_JUDGED -> stalled.add(name + ": " + overrun.describe());
                case BROKEN -> org.assertj.core.api.Assertions.fail(name + ": the service " + overrun.describe());
            }
        });
        org.junit.jupiter.api.Assumptions.assumeTrue(stalled.isEmpty(), () -> "not judged: " + String.join("; ", stalled));
    }

    @Test
    @DisplayName("under every scenario no money is lost: after reconcile no order is charged but not PAID, every PAID order is notified exactly once after the outbox drains, no reservation leaks")
    void noMoneyLostUnderAnyScenario() {
        outcomes.forEach((name, o) -> {
            MoneyEvidence money = o.report().money();
            assertThat(o.report().extraByName().get("reconciled")).as(name + " reconciler finished").isEqualTo(true);
            assertThat(o.report().extraByName().get("outbox_drained")).as(name + " outbox drained").isEqualTo(true);
            assertThat(money.chargedButNotPaidAfterReconcile()).as(name + " charged but not PAID after reconcile").isZero();
            assertThat(money.paidButNotNotified()).as(name + " PAID but not notified").isZero();
            assertThat(money.notifiedMoreThanOnce()).as(name + " notified more than once").isZero();
            assertThat(money.reservationsLeaked()).as(name + " reservations leaked").isZero();
            assertThat(o.report().extraByName().get("reconcile_not_paying")).as(name + " reconciler met an order not PAYING").isEqualTo(0L);
        });
    }

    @Test
    @DisplayName("under every scenario no order is charged twice and no notification takes effect twice (idempotency key, one message id per order)")
    void neverChargedOrNotifiedTwice() {
        outcomes.forEach((name, o) -> {
            MoneyEvidence money = o.report().money();
            assertThat(money.doubleCharges()).as(name + " double charges").isZero();
            assertThat(money.notifiedMoreThanOnce()).as(name + " notified more than once").isZero();
        });
    }
}

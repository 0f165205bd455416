package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import archlab.loadgen.LoadSpec;
import archlab.run.LabRun;
import archlab.report.MoneyEvidence;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioProgress;
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

    @Test
    @DisplayName("under every scenario no order is charged twice and no notification takes effect twice (idempotency key, one message id per order)")
    void neverChargedOrNotifiedTwice() {
        outcomes.forEach((name, o) -> {
            MoneyEvidence money = o.report().money();
            assertThat(money.doubleCharges()).as(name + " double charges").isZero();
            assertThat(money.notifiedMoreThanOnce()).as(name + " notified more than once").isZero();
        });
    }

    @Test
    @DisplayName("under every scenario, the long outage too, the relay outlasts the notifier's outage: after the outbox drains every PAID order is notified exactly once and nothing is parked")
    void everyPaidOrderIsNotifiedOnceAfterTheOutboxDrains() {
        outcomes.forEach((name, o) -> {
            assertThat(o.report().extraByName().get("outbox_drained")).as(name + " outbox drained").isEqualTo(true);
            assertThat(o.report().extraByName().get("outbox_parked")).as(name + " outbox parked").isEqualTo(0L);
            assertThat(o.report().money().paidButNotNotified()).as(name + " PAID but not notified").isZero();
            assertThat(o.report().money().notifiedMoreThanOnce()).as(name + " notified more than once").isZero();
        });
    }

    @Test
    @DisplayName("ch12-2 counts a charge without an answer as failed: under slow and failing downstream and under lost replies in the long outage some orders are charged but never PAID, and nothing resolves them")
    void unansweredChargesAreLeftChargedButNotPaid() {
        List<Scenario> judged = List.of(Scenario.slowDownstream(), Scenario.failingDownstream(), Scenario.longOutage());
        assumeTrue(judged.stream().anyMatch(s -> outcomes.containsKey(s.name())),
                () -> "none of " + judged.stream().map(Scenario::name).toList() + " was run (-Dscenarios=" + System.getProperty("scenarios") + ")");
        for (Scenario s : judged.stream().filter(s -> outcomes.containsKey(s.name())).toList()) {
            MoneyEvidence money = outcomes.get(s.name()).report().money();
            assertThat(money.chargedButNotPaid()).as(s.name() + " charged but not PAID, after the outbox drained").isPositive();
        }
    }
}

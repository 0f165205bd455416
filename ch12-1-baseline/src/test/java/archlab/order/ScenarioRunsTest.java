package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import archlab.db.LabDatabase;
import archlab.loadgen.LoadSpec;
import archlab.run.testing.StoreUnderTest;
import archlab.run.LabRun;
import archlab.report.MoneyEvidence;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioProgress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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

    private static final String MODULE = "ch12-1-baseline";

    private final Map<String, LabRun.Reports> outcomes = new LinkedHashMap<>();

    @BeforeAll
    void runTheCatalogue() {
        if (!StoreUnderTest.chosenIsUsable()) {
            return;
        }
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
            for (String pool : List.of(LabDatabase.POOL_LINE, LabDatabase.POOL_TIMELINE_LINE)) {
                java.util.Optional.ofNullable(outcomes.get(s.name()).report().extraByName().get(pool))
                        .ifPresent(v -> System.out.println(pool + "=" + v));
            }
        }
    }

    @BeforeEach
    void storeIsUsable() {
        StoreUnderTest.chosenAndUsable();
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
    @DisplayName("under failing downstream the baseline loses money: orders charged but never marked PAID")
    void failingDownstreamLosesMoney() {
        MoneyEvidence money = ran(Scenario.failingDownstream()).report().money();
        assertThat(money.chargedButNotPaid()).isPositive();
    }

    @Test
    @DisplayName("under a notifier outage longer than the run the baseline loses money: a pay that charged fails on the notifier inside the lock, and the order is never marked PAID")
    void longOutageLosesMoney() {
        MoneyEvidence money = ran(Scenario.longOutage()).report().money();
        assertThat(money.chargedButNotPaid()).isPositive();
    }

    @Test
    @DisplayName("under a slow downstream the baseline cannot hold its callers to their deadline: a waiter for the lock cannot give up")
    void slowDownstreamOverrunsTheDeadline() {
        assertThat(ran(Scenario.slowDownstream()).run().maxOverrunNanos())
                .as("max overrun past the deadline, ns").isPositive();
    }

    /** @return the run of {@code s}; the test is skipped when {@code -Dscenarios=…} left it out */
    private LabRun.Reports ran(Scenario s) {
        assumeTrue(outcomes.containsKey(s.name()), () -> s.name() + " was not run (-Dscenarios=" + System.getProperty("scenarios") + ")");
        return outcomes.get(s.name());
    }
}

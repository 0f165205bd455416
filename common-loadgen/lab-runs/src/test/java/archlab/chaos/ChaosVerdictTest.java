package archlab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.chaos.ChaosEvidence.Deadlines;
import archlab.chaos.ChaosEvidence.Delivery;
import archlab.chaos.ChaosEvidence.Money;
import archlab.scenario.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChaosVerdictTest {

    private static final Scenario MIX = ChaosMix.draw(7);
    private static final Duration BOUND = Duration.ofMillis(5);
    private static final long MS = 1_000_000L;
    private static final Money PAID_10 = new Money(10, 0, List.of(), 0);
    private static final Delivery DELIVERED = new Delivery(List.of(), List.of(), 0);
    /** The slowest answer 1 ms past its deadline, none unanswered, the generator and the machine 1 ms late at worst. */
    private static final Deadlines ON_TIME = new Deadlines(MS, 0, MS, MS);

    /** A clean run: 10 PAID orders, nothing wrong, the generator on time, the slowest answer 1 ms past its deadline. */
    private static ChaosEvidence clean() {
        return new ChaosEvidence(PAID_10, DELIVERED, 0, ON_TIME);
    }

    private static ChaosVerdict judge(ChaosEvidence e) {
        return ChaosVerdict.judge(7, MIX, e, BOUND);
    }

    @Test
    @DisplayName("a clean run breaks nothing, and PAID orders held in the outbox while the notifier is still down are excused, not violations")
    void cleanRunAndHeldNotificationsPass() {
        assertThat(judge(clean()).violated()).isFalse();
        assertThat(judge(new ChaosEvidence(PAID_10, new Delivery(List.of(), List.of(), 4), 0, ON_TIME)).violated()).isFalse();
    }

    @Test
    @DisplayName("each money and delivery invariant is exact: one double charge, one order charged but not PAID, one held by the reconciler, one parked or mis-notified order, one leaked unit is a violation naming it")
    void everyInvariantIsExact() {
        assertThat(judge(new ChaosEvidence(new Money(10, 1, List.of(), 0), DELIVERED, 0, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.DOUBLE_CHARGE);
        assertThat(judge(new ChaosEvidence(new Money(10, 0, List.of("ord-000007"), 0), DELIVERED, 0, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.CHARGED_NOT_PAID).hasEntrySatisfying(Invariant.CHARGED_NOT_PAID, s -> assertThat(s).contains("ord-000007"));
        assertThat(judge(new ChaosEvidence(new Money(10, 0, List.of(), 1), DELIVERED, 0, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.CHARGED_NOT_PAID);
        assertThat(judge(new ChaosEvidence(PAID_10, new Delivery(List.of(), List.of("ord-000003"), 0), 0, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.PAID_NOTIFIED_ONCE).hasEntrySatisfying(Invariant.PAID_NOTIFIED_ONCE, s -> assertThat(s).contains("parked").contains("ord-000003"));
        assertThat(judge(new ChaosEvidence(PAID_10, new Delivery(List.of("ord-000004 PAID, notified 0x"), List.of(), 0), 0, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.PAID_NOTIFIED_ONCE);
        assertThat(judge(new ChaosEvidence(PAID_10, DELIVERED, -1, ON_TIME)).violations())
                .containsOnlyKeys(Invariant.RESERVATION_LEAKED);
    }

    @Test
    @DisplayName("an overrun past the bound plus the machine's longest stall is a violation; one the stall could explain (within bound + stall, or any overrun when the send lag or a hiccup alone exceeded the bound) is not judged; a caller never answered is a violation either way")
    void theDeadlineIsJudgedOnlyWhereTheMachineCannotExplainIt() {
        ChaosVerdict late = judge(new ChaosEvidence(PAID_10, DELIVERED, 0, new Deadlines(9 * MS, 0, MS, 2 * MS)));
        assertThat(late.violations()).containsOnlyKeys(Invariant.DEADLINE_KEPT)
                .hasEntrySatisfying(Invariant.DEADLINE_KEPT, s -> assertThat(s).contains("9.0 ms past").contains("longest stall 2.0 ms"));
        assertThat(late.deadlineJudged()).isTrue();

        ChaosVerdict hiccupped = judge(new ChaosEvidence(PAID_10, DELIVERED, 0, new Deadlines(5_400_000, 0, MS, 2 * MS)));
        assertThat(hiccupped.violated()).isFalse();
        assertThat(hiccupped.deadlineJudged()).isFalse();

        ChaosVerdict busy = judge(new ChaosEvidence(PAID_10, DELIVERED, 0, new Deadlines(90 * MS, 0, 12 * MS, MS)));
        assertThat(busy.violated()).isFalse();
        assertThat(busy.deadlineJudged()).isFalse();

        ChaosVerdict hung = judge(new ChaosEvidence(PAID_10, DELIVERED, 0, new Deadlines(0, 2, 12 * MS, 0)));
        assertThat(hung.violations()).containsOnlyKeys(Invariant.DEADLINE_KEPT);
        assertThat(hung.deadlineJudged()).isTrue();
    }
}

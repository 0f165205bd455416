package archlab.chaos;

import archlab.loadgen.DeadlineOverrun;
import archlab.scenario.Scenario;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One chaos run judged: which {@link Invariant}s its evidence breaks, and why.
 *
 * <p>The money and delivery invariants are exact: one double charge, one order charged but not PAID, one PAID order
 * not notified (and not excused by an outage still going on), one parked notification, one unit leaked, is a
 * violation. The deadline is a time claim on a shared machine, judged by {@link DeadlineOverrun}'s rule: an overrun
 * past the bound that the machine's longest stall (the generator's send lag, the hiccup probe's longest hiccup) could
 * explain proves nothing about the service, and the claim is <em>not judged</em> for that run, neither passed nor
 * failed. A caller never answered is a violation however busy the machine was.
 *
 * @param seed           the seed that replays the run
 * @param mix            the fault mix the seed drew
 * @param evidence       what the run left behind
 * @param violations     every invariant broken, with what broke it; empty when none
 * @param deadlineJudged whether the deadline claim was judged (false: the machine's stalls could explain the overrun)
 */
public record ChaosVerdict(long seed, Scenario mix, ChaosEvidence evidence, Map<Invariant, String> violations,
                           boolean deadlineJudged) {

    /** How many order ids a violation names. */
    static final int NAMED = 5;

    public ChaosVerdict {
        Map<Invariant, String> copy = new EnumMap<>(Invariant.class);
        copy.putAll(violations);
        violations = Collections.unmodifiableMap(copy);
    }

    /**
     * @param overrunBound how far past its deadline a caller may be answered: the checkpoint's stated bound
     */
    public static ChaosVerdict judge(long seed, Scenario mix, ChaosEvidence e, Duration overrunBound) {
        Map<Invariant, String> v = new EnumMap<>(Invariant.class);
        ChaosEvidence.Money money = e.money();
        ChaosEvidence.Delivery delivery = e.delivery();
        ChaosEvidence.Deadlines deadlines = e.deadlines();
        if (money.doubleCharges() > 0) {
            v.put(Invariant.DOUBLE_CHARGE, money.doubleCharges() + " charges beyond an order's first");
        }
        if (!money.chargedNotPaid().isEmpty() || money.reconcilePending() > 0) {
            v.put(Invariant.CHARGED_NOT_PAID, money.chargedNotPaid().size() + " orders charged but not PAID once the run settled "
                    + named(money.chargedNotPaid()) + (money.reconcilePending() > 0 ? "; the reconciler still holds " + money.reconcilePending() : ""));
        }
        if (!delivery.notNotifiedOnce().isEmpty() || !delivery.parked().isEmpty()) {
            v.put(Invariant.PAID_NOTIFIED_ONCE, (delivery.parked().isEmpty() ? "" : delivery.parked().size() + " PAID orders' notifications parked "
                    + named(delivery.parked()) + (delivery.notNotifiedOnce().isEmpty() ? "" : "; ")) + (delivery.notNotifiedOnce().isEmpty() ? ""
                    : delivery.notNotifiedOnce().size() + " orders not notified exactly once " + named(delivery.notNotifiedOnce())));
        }
        if (e.reservationsLeaked() != 0) {
            v.put(Invariant.RESERVATION_LEAKED, e.reservationsLeaked() + " units reserved beyond what the PAID orders hold");
        }
        DeadlineOverrun overrun = deadlines.against(overrunBound);
        boolean judged = deadlines.unfinished() > 0 || overrun.verdict() != DeadlineOverrun.Verdict.NOT_JUDGED;
        if (deadlines.unfinished() > 0) {
            v.put(Invariant.DEADLINE_KEPT, deadlines.unfinished() + " callers never answered");
        } else if (overrun.verdict() == DeadlineOverrun.Verdict.BROKEN) {
            v.put(Invariant.DEADLINE_KEPT, "a caller " + overrun.describe());
        }
        return new ChaosVerdict(seed, mix, e, v, judged);
    }

    /** @return whether some invariant is broken */
    public boolean violated() {
        return !violations.isEmpty();
    }

    private static String named(List<String> ids) {
        if (ids.isEmpty()) {
            return "";
        }
        String shown = String.join(", ", ids.subList(0, Math.min(NAMED, ids.size())));
        return "(" + shown + (ids.size() > NAMED ? ", … " + (ids.size() - NAMED) + " more" : "") + ")";
    }
}

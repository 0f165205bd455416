package archlab.serve;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.remote.DownstreamServer;
import archlab.loadgen.BookWorkload;
import archlab.report.OrderAudit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Two instances on one store, one SIGKILLed while the other keeps serving and is never restarted: does the survivor
 * finish the dead one's work — its orders left PAYING, its notifications left in the outbox — by the leases alone?
 *
 * <p>The trap it tests: recovery that runs only when a process <em>starts</em>. A crash series always restarts its child,
 * so work recovered at start looks recovered; in a fleet the dead member is not restarted, and what it left must be
 * taken over by a live peer while that peer runs. Nothing here restarts anything.
 *
 * <p>One run: both instances under the crash series' load ({@link CrashLoad}) over HTTP; the first killed after
 * {@link PeerDeathSettings#killAfter()}; the survivor under load for {@link PeerDeathSettings#survivorLoad()} more, then
 * left alone until nothing of the run is PAYING, every PAID order is notified and the outbox holds nothing pending or in
 * flight, or {@link PeerDeathSettings#settleLimit()} passed — timed from the kill. Then the books are audited order by
 * order ({@link OrderAudit}), while the survivor still serves.
 *
 * <p>Not thread-safe: one run at a time (it is a load run).
 */
public final class PeerDeath {

    /** Reads the shared store: orders left PAYING (with their ids) and the outbox's open rows. */
    public interface Tables {
        /** @return what is PAYING and open in the outbox now (ids of the PAYING orders included) */
        CrashSeries.Left left();

        /** @return outbox rows IN_FLIGHT now */
        long inFlight();

        /** @return outbox rows PENDING now */
        long pending();
    }

    /** Clients per instance, as in a crash series. */
    public static final int CLIENTS = 8;
    /** Each request's deadline, as in a crash series. */
    public static final Duration DEADLINE = Duration.ofSeconds(1);

    /**
     * @param child        the checkpoint both instances serve, and its options (the shared store)
     * @param killAfter    load on both before the first is killed
     * @param survivorLoad load on the survivor after the kill
     * @param settleLimit  how long after the kill the survivor may take to finish the dead one's work
     * @param orderOfKey   the order a reservation key names, for the audit; {@code null}: none
     */
    public record PeerDeathSettings(CrashSeries.Child child, Duration killAfter, Duration survivorLoad, Duration settleLimit,
                                    Function<String, Optional<String>> orderOfKey) {
        public PeerDeathSettings {
            Objects.requireNonNull(child, "child");
            if (killAfter.isNegative() || survivorLoad.isNegative() || !settleLimit.isPositive()) {
                throw new IllegalArgumentException("delays >= 0 and a positive settle limit, were " + killAfter + ", "
                        + survivorLoad + ", " + settleLimit);
            }
        }

        /** The kill after 1 s, 2 s more on the survivor, 30 s to settle. */
        public static PeerDeathSettings of(CrashSeries.Child child, Function<String, Optional<String>> orderOfKey) {
            return new PeerDeathSettings(child, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(30), orderOfKey);
        }
    }

    /**
     * The kill.
     *
     * @param exitCode        the killed instance's exit code (137: SIGKILL)
     * @param leftAtKill      PAYING and open outbox rows just after the kill (both instances')
     * @param deadPaying      orders of the dead instance left PAYING at the kill
     * @param chargedInWindow of those, the ones the provider had charged: the kill fell between charge and commit
     */
    public record AtKill(int exitCode, CrashSeries.Left leftAtKill, long deadPaying, long chargedInWindow) {
    }

    /**
     * What the survivor finished.
     *
     * @param settled      whether it finished within the limit
     * @param settle       from the kill to settled (or the limit)
     * @param inFlightLeft outbox rows IN_FLIGHT at the end
     * @param pendingLeft  outbox rows PENDING at the end
     * @param payingLeft   orders of the run PAYING at the end
     * @param lost         acknowledged creates gone and acknowledged pays not PAID, both instances
     */
    public record Ending(boolean settled, Duration settle, long inFlightLeft, long pendingLeft, long payingLeft, long lost) {
    }

    /**
     * @param dead     what the killed instance's clients were answered
     * @param survivor what the survivor's clients were answered
     * @param kill     the kill and what it left
     * @param ending   what the survivor finished
     * @param audit    the books, order by order
     */
    public record PeerDeathResult(CrashSeries.Acknowledged dead, CrashSeries.Acknowledged survivor, AtKill kill, Ending ending,
                                  OrderAudit audit) {

        /** @return the dead instance's exit code */
        public int exitCode() {
            return kill.exitCode();
        }

        /** @return what was PAYING and open at the kill */
        public CrashSeries.Left leftAtKill() {
            return kill.leftAtKill();
        }

        /** @return the dead instance's orders left PAYING */
        public long deadPaying() {
            return kill.deadPaying();
        }

        /** @return whether the survivor finished in time */
        public boolean settled() {
            return ending.settled();
        }

        /** @return the run in one line: {@code peer_death … in_flight_left=N …} */
        public String line() {
            return String.format(Locale.ROOT, "peer_death exit=%d dead_acked_creates=%d dead_acked_pays=%d survivor_acked_creates=%d"
                            + " survivor_acked_pays=%d server_errors=%d dead_left_paying=%d charged_in_window=%d left_outbox_at_kill=%d settled=%s"
                            + " settle=%dms in_flight_left=%d pending_left=%d paying_left=%d lost=%d paid_not_charged=%d"
                            + " charged_not_paid=%d paid_not_notified=%d notified_twice=%d",
                    kill.exitCode(), dead.creates(), dead.pays(), survivor.creates(), survivor.pays(),
                    dead.serverErrors() + survivor.serverErrors(), kill.deadPaying(),
                    kill.chargedInWindow(), kill.leftAtKill().outboxOpen(), ending.settled(), ending.settle().toMillis(),
                    ending.inFlightLeft(), ending.pendingLeft(), ending.payingLeft(), ending.lost(),
                    audit.paidNotCharged(), audit.chargedNotPaid(), audit.paidNotNotified(), audit.notifiedTwice());
        }
    }

    private PeerDeath() {
    }

    /**
     * Runs it against the book's downstream served from this JVM.
     *
     * @param store  reads an order's status in the shared store
     * @param tables reads the shared store's PAYING orders and outbox
     * @param out    where the lines go
     */
    public static PeerDeathResult run(PeerDeathSettings settings, CrashSeries.OrderProbe store, Tables tables, Consumer<String> out)
            throws InterruptedException {
        Downstream downstream = Downstream.create(DownstreamSettings.BOOK);
        try (DownstreamServer stubs = DownstreamServer.start(downstream)) {
            List<String> options = new ArrayList<>(ServedProcess.DEFAULT_JVM_OPTIONS);
            options.add("-D" + CrashSeries.DOWNSTREAM_PROPERTY + "=" + stubs.baseUri());
            options.addAll(settings.child().childOptions());
            try (ServedProcess doomed = ServedProcess.builder(settings.child().mainClass()).jvmOptions(options).start();
                 ServedProcess survivor = ServedProcess.builder(settings.child().mainClass()).jvmOptions(options).start();
                 var loads = Executors.newVirtualThreadPerTaskExecutor()) {
                long[] killedAt = new long[1];
                CrashSeries.Left[] atKill = new CrashSeries.Left[1];
                Future<CrashLoad.Answers> onSurvivor = loads.submit(() -> CrashLoad.until(survivor.baseUri(), CLIENTS,
                        DEADLINE, settings.killAfter().plus(settings.survivorLoad()), () -> { }));
                CrashLoad.Answers onDead = CrashLoad.until(doomed.baseUri(), CLIENTS, DEADLINE,
                        settings.killAfter(), () -> {
                            doomed.kill();
                            killedAt[0] = System.nanoTime();
                            atKill[0] = tables.left();
                        });
                int exit = doomed.awaitExit();
                CrashLoad.Answers onLive = get(onSurvivor);
                Set<String> deadOrders = new TreeSet<>(onDead.payAttempted());
                deadOrders.addAll(onDead.ackedCreates());
                long deadPaying = atKill[0].payingIds().stream().filter(deadOrders::contains).count();
                long inWindow = atKill[0].payingIds().stream().filter(deadOrders::contains)
                        .filter(id -> !downstream.ledger().chargesFor(id).isEmpty()).count();
                out.accept(String.format(Locale.ROOT, "peer death: killed pid %d after %d ms (exit %d), %d of its orders PAYING"
                                + " (%d charged), %d outbox rows open; the survivor pid %d served %d ms more and is not restarted",
                        doomed.pid(), settings.killAfter().toMillis(), exit, deadPaying, inWindow, atKill[0].outboxOpen(),
                        survivor.pid(), settings.survivorLoad().toMillis()));

                Set<String> universe = new TreeSet<>(deadOrders);
                universe.addAll(onLive.payAttempted());
                universe.addAll(onLive.ackedCreates());
                universe.addAll(downstream.ledger().chargedOrderIds());
                boolean settled = CrashSeries.awaitSettled(store, universe, downstream, killedAt[0] + settings.settleLimit().toNanos(),
                        () -> tables.inFlight() == 0 && tables.pending() == 0); // the dead peer's outbox rows delivered too
                Duration settle = Duration.ofNanos(System.nanoTime() - killedAt[0]);
                long payingLeft = universe.stream().filter(id -> store.status(id).filter(CrashSeries.PAYING::equals).isPresent()).count();
                long lost = 0;
                for (CrashLoad.Answers a : List.of(onDead, onLive)) {
                    lost += a.ackedCreates().stream().filter(id -> store.status(id).isEmpty()).count();
                    lost += a.ackedPays().stream().filter(id -> !store.status(id).filter(CrashSeries.PAID::equals).isPresent()).count();
                }
                OrderAudit audit = OrderAudit.of(downstream, universe, id -> store.status(id).filter(CrashSeries.PAID::equals).isPresent(),
                        id -> BookWorkload.QUANTITY, settings.orderOfKey());
                PeerDeathResult result = new PeerDeathResult(acknowledged(onDead), acknowledged(onLive),
                        new AtKill(exit, atKill[0], deadPaying, inWindow),
                        new Ending(settled, settle, tables.inFlight(), tables.pending(), payingLeft, lost), audit);
                survivor.stop();
                out.accept(audit.line());
                out.accept(result.line());
                return result;
            }
        }
    }

    private static CrashSeries.Acknowledged acknowledged(CrashLoad.Answers a) {
        return new CrashSeries.Acknowledged(a.ackedCreates().size(), a.ackedPays().size(), a.unanswered(), a.refused(), a.serverErrors());
    }

    private static CrashLoad.Answers get(Future<CrashLoad.Answers> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the survivor's load failed: " + e.getCause(), e.getCause());
        }
    }
}

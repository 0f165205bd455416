package archlab.serve;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.LatencyModel;
import archlab.downstream.remote.DownstreamServer;
import archlab.loadgen.BookWorkload;
import archlab.report.MoneyEvidence;
import archlab.report.OrderAudit;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Kills a served checkpoint again and again in the middle of its work and counts what the kills lost: the test of
 * "nothing committed is lost when the process dies". The checkpoint runs as a child process ({@link ServedProcess})
 * whose downstream — inventory, payments, notifier, with their books — is served from this JVM over loopback
 * ({@link DownstreamServer}): what the provider charged and what the customer was told outlive every kill.
 *
 * <p>One series: for each of {@link Schedule#kills()} kills, start the child (its relay and reconciler finish what the
 * previous one left), put load on it over HTTP from {@link Schedule#clients()} clients — create an order, pay it,
 * again — and SIGKILL it after a delay drawn from the kill's seed; then start it once more and let it settle. What
 * the clients were answered is <em>acknowledged</em>: a 201 for a create, a 200 for a pay. Then the books are read:
 * <ul>
 *   <li><b>lost</b>: acknowledged orders the store no longer has, plus acknowledged pays whose order is not PAID;</li>
 *   <li><b>duplicates</b>: orders whose notification took effect more than once (the notifier recognises a redelivery of
 *       one message id, which is not a duplicate);</li>
 *   <li><b>charged but not PAID</b>: orders the provider charged that are not PAID;</li>
 *   <li>and the ledger's double charges, PAID orders never notified and leaked reservations.</li>
 * </ul>
 * The store is read through an {@link OrderProbe} the checkpoint's test gives: its database, or — for a store in the
 * child's heap — what the child answers over HTTP.
 *
 * <p>Kill {@code k}'s schedule (its delay) comes from the seed {@code firstSeed + k − 1}; the lines printed name it, and
 * {@code -Dlab.crash.seed=S -Dlab.crash.kills=1} runs that kill's schedule again. The timing of the requests around
 * the kill is the machine's and does not replay.
 *
 * <p>Not thread-safe: one series at a time (it is a load run).
 */
public final class CrashSeries {

    /** The child's system property naming the downstream's base URI, for {@code RemoteDownstream.connect}. */
    public static final String DOWNSTREAM_PROPERTY = "archlab.crash.downstream";
    /** A status {@link OrderProbe} answers for an order it knows exists but whose status it cannot see. */
    public static final String EXISTS = "EXISTS";
    /** The status of a PAID order, as the checkpoints' stores spell it. */
    public static final String PAID = "PAID";
    /** The status of a claimed order whose pay has not ended, as the checkpoints' stores spell it. */
    public static final String PAYING = "PAYING";

    /**
     * Counts what a dead child left in the store for its successor to finish, read between a kill and the next start:
     * the evidence that a kill landed in a crash window rather than between two requests.
     */
    @FunctionalInterface
    public interface LeftBehind {
        /** @return orders left PAYING and outbox rows left undelivered; {@link Left#NOT_VISIBLE} for a store in the heap */
        Left count();
    }

    /**
     * @param paying     orders left PAYING (a pay between its claim and its commit)
     * @param outboxOpen notifications left pending or in flight
     * @param payingIds  the ids of the orders left PAYING, when the store names them (empty otherwise)
     */
    public record Left(long paying, long outboxOpen, Set<String> payingIds) {
        /** What a store in the child's heap leaves: nothing anyone can read. */
        public static final Left NOT_VISIBLE = new Left(-1, -1);

        public Left {
            payingIds = Set.copyOf(payingIds);
        }

        /** Counts without the ids. */
        public Left(long paying, long outboxOpen) {
            this(paying, outboxOpen, Set.of());
        }

        String text() {
            return this == NOT_VISIBLE || paying < 0 ? "n/a" : paying + "/" + outboxOpen;
        }
    }

    /** Reads the checkpoint's store after the last start. */
    @FunctionalInterface
    public interface OrderProbe {
        /**
         * @return the order's status as the store keeps it ({@code CREATED}, {@value #PAYING}, {@value #PAID}), or
         *         {@value #EXISTS} when only its existence is visible; empty when the store has no such order
         */
        Optional<String> status(String orderId);
    }

    /**
     * The child a series kills.
     *
     * @param mainClass    the checkpoint's crash main, served by {@link ServedProcess}
     * @param store        the store's name, for the report ("memory", "postgres")
     * @param childOptions JVM options of the child beyond {@link ServedProcess#DEFAULT_JVM_OPTIONS} (where its store is)
     */
    public record Child(Class<?> mainClass, String store, List<String> childOptions) {
        public Child {
            Objects.requireNonNull(mainClass, "mainClass");
            Objects.requireNonNull(store, "store");
            childOptions = List.copyOf(childOptions);
        }
    }

    /**
     * When and how hard a series kills.
     *
     * @param kills        kills in the series, at least 1
     * @param firstSeed    the first kill's seed
     * @param killAfterMin the shortest delay from the load's start to the kill
     * @param killAfterMax the longest (exclusive)
     * @param clients      concurrent clients putting load on the child, at least 1
     * @param deadline     each request's deadline, sent as {@code X-Deadline-Ms}
     */
    public record Schedule(int kills, long firstSeed, Duration killAfterMin, Duration killAfterMax, int clients,
                           Duration deadline) {
        public Schedule {
            if (kills < 1 || clients < 1) {
                throw new IllegalArgumentException("kills and clients must be at least 1, were " + kills + " and " + clients);
            }
            if (killAfterMin.isNegative() || killAfterMax.compareTo(killAfterMin) <= 0) {
                throw new IllegalArgumentException("kill delays must be 0 <= min < max, were " + killAfterMin + " and " + killAfterMax);
            }
        }

        /**
         * Kills after 250–1,250 ms of load from 8 clients (a fresh JVM's first requests are slow: a shorter window often
         * ends before the first pay is answered), each request on a deadline of 1 s.
         */
        public static Schedule of(int kills, long firstSeed) {
            return new Schedule(kills, firstSeed, Duration.ofMillis(250), Duration.ofMillis(1_250), 8, Duration.ofSeconds(1));
        }
    }

    /**
     * @param child       what is killed
     * @param schedule    when and under what load
     * @param settleLimit how long the last start may take to leave nothing PAYING and every PAID order notified
     * @param orderOfKey  the order a reservation key names, for the audit per order; {@code null}: the keys name none
     * @param lateCharges the provider's charges land this late, drawn per call ({@link Downstream#withLateCharges});
     *                    {@code null}: the book's provider, whose charge is in its books on arrival
     */
    public record CrashSettings(Child child, Schedule schedule, Duration settleLimit, Function<String, Optional<String>> orderOfKey,
                                LatencyModel lateCharges) {

        /** {@link Schedule#of}, 60 s to settle, no reservation key read, the book's provider. */
        public static CrashSettings of(Class<?> mainClass, String store, List<String> childOptions, int kills, long firstSeed) {
            return new CrashSettings(new Child(mainClass, store, childOptions), Schedule.of(kills, firstSeed), Duration.ofSeconds(60),
                    null, null);
        }

        /** @return these settings, the audit reading reservation keys with {@code orderOfKey} */
        public CrashSettings withOrderOfKey(Function<String, Optional<String>> orderOfKey) {
            return new CrashSettings(child, schedule, settleLimit, orderOfKey, lateCharges);
        }

        /** @return these settings, the provider's charges landing {@code landing} after they arrive */
        public CrashSettings withLateCharges(LatencyModel landing) {
            return new CrashSettings(child, schedule, settleLimit, orderOfKey, landing);
        }
    }

    /**
     * What the clients were answered: creates answered 201, pays answered 200, requests unanswered (in flight at the
     * kill, or past their deadline), requests answered otherwise (an error status, a 409), and of those the 500s (a
     * failure the server did not classify: none is expected, a kill shows as a connection lost).
     */
    public record Acknowledged(long creates, long pays, long unanswered, long refused, long serverErrors) {
    }

    /**
     * What one kill did: its seed and delay, how long the child took to serve, what the clients were answered, its exit
     * code (137: SIGKILL), and what it left in the store.
     */
    public record Kill(int number, long seed, Duration killAfter, Duration start, Acknowledged acked, Ending ending) {

        public String line(int of) {
            return String.format(java.util.Locale.ROOT, "kill %d/%d seed=%d after=%dms acked_creates=%d acked_pays=%d"
                    + " unanswered=%d refused=%d server_errors=%d start=%dms exit=%d left_paying/outbox=%s charged_in_window=%s", number, of, seed,
                    killAfter.toMillis(), acked.creates(), acked.pays(), acked.unanswered(), acked.refused(), acked.serverErrors(),
                    start.toMillis(), ending.exitCode(), ending.left().text(),
                    ending.chargedInWindow() < 0 ? "n/a" : Long.toString(ending.chargedInWindow()));
        }
    }

    /**
     * How a child ended: its exit code, what it left in the store, and how many of the orders it left PAYING the provider
     * had already charged — a kill between a charge and its PAID commit, the window the reconciler exists for
     * ({@code -1}: the store does not name them).
     */
    public record Ending(int exitCode, Left left, long chargedInWindow) {
    }

    /**
     * What the kills lost, counted after the last start settled.
     *
     * @param creates       acknowledged creates the store no longer has
     * @param pays          acknowledged pays whose order is there and not PAID, or not there
     * @param unknownStatus acknowledged pays whose order exists but whose status the probe cannot see (not counted lost)
     * @param duplicates    orders notified more than once, in effect
     * @param redeliveries  deliveries the notifier recognised as a message it had already (at least once, no effect)
     * @param chargeReplays  charges the provider answered with an earlier charge of the same key (no money moved): a
     *                       retry's, or — when a restarted store reuses order ids — another order's
     */
    public record Losses(long creates, long pays, long unknownStatus, long duplicates, long redeliveries, long chargeReplays) {
    }


    /** The books after the last start settled: in sums ({@link MoneyEvidence}) and order by order ({@link OrderAudit}). */
    public record Books(MoneyEvidence money, OrderAudit audit) {
    }

    /** Whether the last start settled, and how long it took (or the limit). */
    public record Settled(boolean settled, Duration took) {
    }

    private CrashSeries() {
    }

    /**
     * Runs one series against the book's downstream (2 / 4 / 2 ms) served from this JVM: the kills, then a last start
     * under load for one more kill window's length, stopped by the clients (not killed), left to settle.
     *
     * @param probe      the store's reader, made once the last start serves (given its base URI)
     * @param leftBehind what a dead child left in the store, read after each kill
     * @param out        where each kill's line and the result's lines go
     */
    public static CrashSeriesResult run(CrashSettings settings, Function<URI, OrderProbe> probe, LeftBehind leftBehind, Consumer<String> out)
            throws InterruptedException {
        Downstream downstream = settings.lateCharges() == null ? Downstream.create(DownstreamSettings.BOOK)
                : Downstream.withLateCharges(DownstreamSettings.BOOK, settings.lateCharges());
        try (DownstreamServer stubs = DownstreamServer.start(downstream)) {
            List<String> options = new ArrayList<>(ServedProcess.DEFAULT_JVM_OPTIONS);
            options.add("-D" + DOWNSTREAM_PROPERTY + "=" + stubs.baseUri());
            options.addAll(settings.child().childOptions());
            // per start: a store in the heap numbers its orders afresh after every start, so one id may name
            // several orders, one per start, each acknowledged and each lost on its own
            List<Set<String>> ackedCreates = new ArrayList<>();
            List<Set<String>> ackedPays = new ArrayList<>();
            Set<String> payAttempted = new TreeSet<>();
            List<Kill> kills = new ArrayList<>();
            Schedule schedule = settings.schedule();
            for (int k = 1; k <= schedule.kills(); k++) {
                long seed = schedule.firstSeed() + k - 1;
                Duration after = Duration.ofMillis(new java.util.Random(seed).nextLong(schedule.killAfterMin().toMillis(),
                        schedule.killAfterMax().toMillis()));
                long started = System.nanoTime();
                CrashLoad.Answers load;
                int exit;
                try (ServedProcess child = ServedProcess.builder(settings.child().mainClass()).jvmOptions(options).start()) {
                    Duration start = Duration.ofNanos(System.nanoTime() - started);
                    load = CrashLoad.until(child.baseUri(), schedule.clients(), schedule.deadline(), after, child::kill);
                    exit = child.awaitExit();
                    Left left = leftBehind.count();
                    long inWindow = left == Left.NOT_VISIBLE || left.payingIds().size() != left.paying() ? -1
                            : left.payingIds().stream().filter(id -> !downstream.ledger().chargesFor(id).isEmpty()).count();
                    Kill kill = new Kill(k, seed, after, start, new Acknowledged(load.ackedCreates().size(), load.ackedPays().size(), load.unanswered(),
                            load.refused(), load.serverErrors()), new Ending(exit, left, inWindow));
                    kills.add(kill);
                    out.accept(kill.line(schedule.kills()));
                }
                ackedCreates.add(load.ackedCreates());
                ackedPays.add(load.ackedPays());
                payAttempted.addAll(load.payAttempted());
            }
            try (ServedProcess last = ServedProcess.builder(settings.child().mainClass()).jvmOptions(options).start()) {
                // the last start works too: what strands work in a live process, not only across a kill, shows here
                CrashLoad.Answers load = CrashLoad.until(last.baseUri(), schedule.clients(), schedule.deadline(),
                        schedule.killAfterMin(), () -> { });
                ackedCreates.add(load.ackedCreates());
                ackedPays.add(load.ackedPays());
                payAttempted.addAll(load.payAttempted());
                out.accept(String.format(java.util.Locale.ROOT, "last start: %dms of load, acked_creates=%d acked_pays=%d"
                        + " refused=%d, then settle", schedule.killAfterMin().toMillis(), load.ackedCreates().size(),
                        load.ackedPays().size(), load.refused()));
                OrderProbe store = probe.apply(last.baseUri());
                Set<String> universe = new TreeSet<>();
                ackedCreates.forEach(universe::addAll);
                universe.addAll(payAttempted);
                universe.addAll(downstream.ledger().chargedOrderIds());
                long settleStarted = System.nanoTime();
                boolean settled = awaitSettled(store, universe, downstream, System.nanoTime() + settings.settleLimit().toNanos(), () -> true);
                Settled settledIn = new Settled(settled, Duration.ofNanos(System.nanoTime() - settleStarted));
                long lostCreates = ackedCreates.stream().flatMap(Set::stream).filter(id -> store.status(id).isEmpty()).count();
                long lostPays = 0;
                long unknown = 0;
                for (String id : ackedPays.stream().flatMap(Set::stream).toList()) {
                    Optional<String> status = store.status(id);
                    if (status.isPresent() && status.get().equals(EXISTS)) {
                        unknown++;
                    } else if (status.isEmpty() || !status.get().equals(PAID)) {
                        lostPays++;
                    }
                }
                MoneyEvidence money = MoneyEvidence.measure(downstream, universe,
                        id -> store.status(id).filter(PAID::equals).isPresent(), id -> BookWorkload.QUANTITY);
                // read while the last start serves: a store in its heap answers over HTTP
                OrderAudit audit = OrderAudit.of(downstream, universe, id -> store.status(id).filter(PAID::equals).isPresent(),
                        id -> BookWorkload.QUANTITY, settings.orderOfKey());
                last.stop();
                Losses losses = new Losses(lostCreates, lostPays, unknown, downstream.notifier().duplicateNotifications(),
                        downstream.notifier().redeliveries(), downstream.ledger().replays());
                Acknowledged total = new Acknowledged(ackedCreates.stream().mapToLong(Set::size).sum(),
                        ackedPays.stream().mapToLong(Set::size).sum(),
                        kills.stream().mapToLong(kk -> kk.acked().unanswered()).sum() + load.unanswered(),
                        kills.stream().mapToLong(kk -> kk.acked().refused()).sum() + load.refused(),
                        kills.stream().mapToLong(kk -> kk.acked().serverErrors()).sum() + load.serverErrors());
                CrashSeriesResult result = new CrashSeriesResult(settings, List.copyOf(kills), total, losses, new Books(money, audit), settledIn);
                out.accept(result.detailLine());
                out.accept(audit.line());
                out.accept(result.summaryLine());
                return result;
            }
        }
    }


    /**
     * Waits until {@code alsoSettled} holds, no order of {@code universe} is PAYING and every PAID one was notified, or
     * {@link System#nanoTime()} passed {@code until}.
     */
    static boolean awaitSettled(OrderProbe store, Set<String> universe, Downstream downstream, long until,
                                java.util.function.BooleanSupplier alsoSettled) {
        while (true) {
            boolean settled = alsoSettled.getAsBoolean();
            for (String id : settled ? universe : Set.<String>of()) {
                Optional<String> status = store.status(id);
                if (status.filter(PAYING::equals).isPresent()
                        || status.filter(PAID::equals).isPresent() && downstream.notifier().notificationsFor(id) == 0) {
                    settled = false;
                    break;
                }
            }
            if (settled) {
                return true;
            }
            if (System.nanoTime() - until > 0) {
                return false;
            }
            LockSupport.parkNanos(100_000_000L);
        }
    }
}

package archlab.order;

import archlab.chaos.ChaosEvidence;
import archlab.chaos.ChaosMix;
import archlab.downstream.Downstream;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LoadSpec;
import archlab.clock.NanoClock;
import archlab.run.JitWarmUp;
import archlab.timeline.TimelineSettings;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioClock;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One chaos run of this checkpoint: a fresh service with the chapter's settings, its relay and reconciler started,
 * meets one drawn fault mix under {@link ChaosMix#LOAD}; then, as after every load run ({@link BookLab#afterRun}),
 * the reconciler works every order it holds, the relay delivers what it can, both stop, and the evidence is read.
 *
 * <p>How long it waits for the outbox: until it is drained (at most {@link BookLab#DRAIN_LIMIT}) when the notifier
 * comes back, however late; not at all when the mix keeps the notifier down for ever. Nothing can be delivered then,
 * and what is checked is that every PAID order's notification is held, visible, in the outbox — not parked, not lost.
 *
 * <p>Thread-safety: each call builds and discards its own service; calls must not overlap (they share the machine).
 */
final class ChaosLab {

    private ChaosLab() {
    }

    static ChaosEvidence run(Scenario mix) {
        // the same JIT warm-up as every lab run of this JVM (the book's load on a scratch BookLab), once
        JitWarmUp.jvm().before(BookLab.MODULE + "/chaos", JitWarmUp.DEFAULT_LENGTH, LoadSpec.book(), BookLab::new,
                TimelineSettings.DEFAULT, System.out::println);
        ScenarioClock timeline = new ScenarioClock(NanoClock.SYSTEM);
        Downstream downstream = mix.newDownstream(timeline);
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(downstream.inventory(), downstream.payments(),
                downstream.notifier(), OrderServiceSettings.DEFAULT);
        OrderService service = parts.service();
        BookWorkload workload;
        try {
            workload = BookWorkload.prepare(new OrderServiceTarget(service), ChaosMix.LOAD.plannedRequests());
        } catch (Exception e) {
            throw new IllegalStateException("could not pre-create the pay pool", e);
        }
        parts.relay().start();
        parts.reconciler().start();
        timeline.start();
        RunResult run = new OpenLoopRunner().run(ChaosMix.LOAD, workload);

        parts.reconciler().stop();
        parts.reconciler().reconcileAll(BookLab.RECONCILE_LIMIT);
        parts.relay().awaitDrained(ChaosMix.notifierDownForEver(mix) ? Duration.ZERO : BookLab.DRAIN_LIMIT);
        service.close();

        boolean notifierDown = mix.notifierDown() != null && timeline.inside(mix.notifierDown());
        Set<String> held = parts.outbox().entries().stream().filter(e -> e.state() != Outbox.State.PARKED)
                .map(e -> e.notification().orderId()).collect(Collectors.toSet());
        Set<String> parked = parts.outbox().parked().stream().map(e -> e.notification().orderId()).collect(Collectors.toSet());
        return ChaosEvidence.measure(downstream, workload.pool(), service::isPaid, id -> BookWorkload.QUANTITY, held, parked,
                notifierDown, parts.reconciler().pending(), run);
    }
}

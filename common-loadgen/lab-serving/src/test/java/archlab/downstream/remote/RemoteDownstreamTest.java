package archlab.downstream.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.IdempotencyKeyConflictException;
import archlab.downstream.Inventory;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;
import archlab.downstream.Payments;
import archlab.downstream.PermanentDeliveryException;
import archlab.loopback.LoopbackPort;
import archlab.request.RequestContext;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The three clients against a served bundle: every call, every answer, every book, as a direct call gives them. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemoteDownstreamTest {

    /** Served ports that throw what each test sets. */
    private final ThrowingPorts throwing = new ThrowingPorts();
    private DownstreamServer throwingServer;
    private RemoteDownstream throwingRemote;

    @BeforeAll
    void serveThrowingPorts() {
        throwingServer = DownstreamServer.serve(throwing, throwing, throwing, LoopbackPort.ANY);
        throwingRemote = RemoteDownstream.connect(throwingServer.baseUri());
    }

    @AfterAll
    void stop() {
        throwingServer.close();
    }

    @Test
    @DisplayName("over HTTP every call of the three ports to Downstream.instant() answers as a direct call does, and leaves the same books in the serving JVM")
    void instantStubsAnswerAndBookAsDirectCalls() {
        Downstream direct = Downstream.instant();
        Downstream served = Downstream.instant();
        List<String> directAnswers = Script.run(direct.inventory(), direct.payments(), direct.notifier());
        List<String> remoteAnswers;
        try (DownstreamServer server = DownstreamServer.start(served)) {
            RemoteDownstream remote = RemoteDownstream.connect(server.baseUri());
            remoteAnswers = Script.run(remote.inventory(), remote.payments(), remote.notifier());
        }
        assertThat(remoteAnswers).containsExactlyElementsOf(directAnswers);
        assertThat(Script.books(served)).isEqualTo(Script.books(direct));
        // the books say what the script did, so equal books are not two empty ones
        assertThat(remoteAnswers).anyMatch(a -> a.startsWith("charge o-3 key-3 again -> ChargeResult") && a.contains("replayed=true"));
        assertThat(remoteAnswers).anyMatch(a -> a.startsWith("find key-3 -> Optional[ChargeResult"));
        assertThat(remoteAnswers).contains("find a key never sent -> Optional.empty");
        assertThat(served.ledger().replays()).as("key-3 and key-6 charged again").isEqualTo(2);
        assertThat(served.notifier().redeliveries()).isEqualTo(1);
        assertThat(served.inventory().reservedUnits("sku-b")).as("a keyed reserve after its release reserves nothing").isZero();
        assertThat(served.inventory().reservedUnits("sku-d")).as("a keyed reserve after an early release reserves nothing").isZero();
        assertThat(served.inventory().keyedRepeats()).as("k1 after its release; k-late released early, then reserved").isEqualTo(3);
        assertThat(served.inventory().reservedUnits("sku-a")).isEqualTo(2);
    }

    @Test
    @DisplayName("over HTTP the stubs' own errors (refusal, decline and its replay, lost reply, key conflict, permanent refusal, bad arguments) arrive as the direct call's, with the same books")
    void faultyStubsAnswerAndBookAsDirectCalls() {
        Downstream direct = Script.faulty();
        Downstream served = Script.faulty();
        List<String> directAnswers = Script.run(direct.inventory(), direct.payments(), direct.notifier());
        List<String> remoteAnswers;
        try (DownstreamServer server = DownstreamServer.start(served)) {
            RemoteDownstream remote = RemoteDownstream.connect(server.baseUri());
            remoteAnswers = Script.run(remote.inventory(), remote.payments(), remote.notifier());
        }
        assertThat(remoteAnswers).containsExactlyElementsOf(directAnswers);
        assertThat(Script.books(served)).isEqualTo(Script.books(direct));
        for (Class<?> type : List.of(DownstreamException.class, PaymentDeclinedException.class, PaymentReplyLostException.class,
                IdempotencyKeyConflictException.class, PermanentDeliveryException.class, IllegalArgumentException.class)) {
            assertThat(remoteAnswers).as("the script meets a " + type.getSimpleName())
                    .anyMatch(a -> a.contains("-> " + type.getName() + ": "));
        }
        assertThat(served.ledger().chargesFor("o-2")).as("the lost reply's charge is in the serving JVM's ledger").hasSize(1);
        assertThat(served.payments().declinesReplayed()).isEqualTo(1);
    }

    /** Each exception a port declares, as a stub may throw it, and a call that meets it. */
    static Stream<Arguments> exceptions() {
        ChargeRequest first = new ChargeRequest("o-1", 100, "k-1");
        Consumer<RemoteDownstream> charge = r -> r.payments().charge(RequestContext.background(), first);
        Consumer<RemoteDownstream> reserve = r -> r.inventory().reserve(RequestContext.background(), "sku", 1);
        Consumer<RemoteDownstream> release = r -> r.inventory().release(RequestContext.background(), "key");
        Consumer<RemoteDownstream> notify = r -> r.notifier().notify(RequestContext.background(), Notification.orderPaid("o-1"));
        return Stream.of(
                Arguments.of(new DownstreamTimeoutException("payments", 3, true), charge),
                Arguments.of(new DownstreamTimeoutException("inventory", 4, false), reserve),
                Arguments.of(new DownstreamTimeoutException("payments", -1, true, "payments pool: no connection after 30.0ms; nothing sent"), charge),
                Arguments.of(new PaymentDeclinedException(5, "o-1"), charge),
                Arguments.of(new PaymentDeclinedException(6, "o-1", 2), charge),
                Arguments.of(new PaymentReplyLostException(7, "o-1"), charge),
                Arguments.of(new IdempotencyKeyConflictException("k-1", first, new ChargeRequest("o-2", 100, "k-1")), charge),
                Arguments.of(new PermanentDeliveryException("notifier", 8, "message id 'paid:o-1' reused"), notify),
                Arguments.of(new DownstreamException("inventory", 9, "injected error: release refused (nothing changed)"), release),
                Arguments.of(new IllegalArgumentException("reservation key k was used for 1 x a, not 2 x b (nothing changed)"), reserve));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exceptions")
    @DisplayName("every exception type a port declares crosses the wire with its type, message and fields (stub, call index, passedOnArrival, idempotency key)")
    void exceptionSurvivesTheTrip(RuntimeException thrown, Consumer<RemoteDownstream> call) {
        throwing.thrown.set(thrown);
        assertThatThrownBy(() -> call.accept(throwingRemote))
                .isExactlyInstanceOf(thrown.getClass())
                .satisfies(e -> assertThat(Script.describe(e)).isEqualTo(Script.describe(thrown)));
    }

    @Test
    @DisplayName("an exception no port declares is a 500 'internal' error: the client gets a DownstreamException saying the outcome is unknown, and nothing of the server's internals")
    void undeclaredExceptionIsInternal() {
        throwing.thrown.set(new IllegalStateException("secret at archlab.downstream.Thing.method(Thing.java:1)"));
        Logger log = Logger.getLogger(DownstreamServlet.class.getName());
        Level level = log.getLevel();
        log.setLevel(Level.OFF); // the server logs it with its stack trace, for its operator: not this test's output
        try {
            assertThatThrownBy(() -> throwingRemote.notifier().notify(RequestContext.background(), Notification.orderPaid("o-1")))
                    .isExactlyInstanceOf(DownstreamException.class)
                    .hasMessageContaining("internal error")
                    .hasMessageContaining("unknown")
                    .hasMessageNotContaining("secret")
                    .hasMessageNotContaining("IllegalStateException");
        } finally {
            log.setLevel(level);
        }
    }

    @Test
    @DisplayName("connect refuses an address that is not http://host:port")
    void connectRefusesOtherAddresses() {
        for (String uri : List.of("https://127.0.0.1:8080", "http://127.0.0.1", "http://127.0.0.1:8080/payments",
                "http://127.0.0.1:8080?x=1", "file:///tmp/x")) {
            assertThatThrownBy(() -> RemoteDownstream.connect(URI.create(uri))).as(uri)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://host:port");
        }
        assertThat(RemoteDownstream.connect(URI.create("http://127.0.0.1:8080/"))).isNotNull();
    }

    /** Three ports that throw one given exception on every call, as a stub would in a state rare to reach. */
    static final class ThrowingPorts implements Inventory, Payments, Notifier {
        final AtomicReference<RuntimeException> thrown = new AtomicReference<>(new IllegalStateException("set none"));

        @Override
        public void reserve(RequestContext ctx, String sku, int quantity) {
            throw thrown.get();
        }

        @Override
        public void release(RequestContext ctx, String sku, int quantity) {
            throw thrown.get();
        }

        @Override
        public void reserve(RequestContext ctx, String reservationKey, String sku, int quantity) {
            throw thrown.get();
        }

        @Override
        public void release(RequestContext ctx, String reservationKey) {
            throw thrown.get();
        }

        @Override
        public archlab.downstream.ChargeResult charge(RequestContext ctx, ChargeRequest request) {
            throw thrown.get();
        }

        @Override
        public Optional<archlab.downstream.ChargeResult> findByIdempotencyKey(String idempotencyKey) {
            throw thrown.get();
        }

        @Override
        public void notify(RequestContext ctx, Notification notification) {
            throw thrown.get();
        }
    }
}

package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The three questions asked of a downstream error, answered for every kind the service meets. */
class DownstreamErrorsTest {

    /** unanswered (may have taken effect), worth retrying, provider failed. */
    private record Answers(boolean unanswered, boolean worthRetrying, boolean providerFailed) {
    }

    @Test
    @DisplayName("a lost reply may have charged and is worth a retry, but is no provider failure; a decline is none of the three; a timeout at the provider is all three; a charge the bulkhead turned away was never sent")
    void everyErrorAnswersTheThreeQuestions() {
        Map<RuntimeException, Answers> expected = new LinkedHashMap<>();
        expected.put(new DownstreamTimeoutException("payments", 0, false), new Answers(true, true, true));
        expected.put(new DownstreamTimeoutException("payments", 0, true), new Answers(false, true, false));
        expected.put(new PaymentReplyLostException(0, "ord-1"), new Answers(true, true, false));
        expected.put(new PaymentDeclinedException(0, "ord-1"), new Answers(false, false, false));
        expected.put(new DownstreamException("inventory", 0, "injected"), new Answers(true, true, true));
        expected.put(new BulkheadFullException(4, 61_000_000L), new Answers(false, true, false));
        expected.put(new CircuitOpenException("payment", Duration.ZERO), new Answers(false, false, false));
        expected.put(new IllegalArgumentException("bad input"), new Answers(false, false, false));
        for (var e : expected.entrySet()) {
            RuntimeException error = e.getKey();
            assertThat(new Answers(DownstreamErrors.unanswered(error), DownstreamErrors.worthRetrying(error),
                    DownstreamErrors.providerFailed(error))).as(error.toString()).isEqualTo(e.getValue());
        }
    }
}

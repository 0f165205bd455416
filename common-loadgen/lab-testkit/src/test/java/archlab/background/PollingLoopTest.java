package archlab.background;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The life cycle the outbox relay and the reconciler share: start once, passes on one thread, stop joins. */
class PollingLoopTest {

    @Test
    @DisplayName("start runs its hook once and starts passes on a daemon thread of the given name; a second start does nothing; stop returns once the thread has ended")
    void startOnceStopJoins() throws Exception {
        AtomicInteger hooks = new AtomicInteger();
        CountDownLatch passed = new CountDownLatch(3);
        String[] threadName = new String[1];
        PollingLoop loop = new PollingLoop("test-loop", Duration.ofMillis(1), () -> {
            threadName[0] = Thread.currentThread().getName();
            passed.countDown();
            return false;
        });

        loop.start(hooks::incrementAndGet);
        loop.start(hooks::incrementAndGet);
        assertThat(passed.await(10, TimeUnit.SECONDS)).as("passes ran").isTrue();
        assertThat(loop.isRunning()).isTrue();
        loop.stop();

        assertThat(loop.isRunning()).isFalse();
        assertThat(hooks).hasValue(1);
        assertThat(threadName[0]).isEqualTo("test-loop");
        loop.stop(); // not running: nothing to do
    }

    @Test
    @DisplayName("a pass that throws is printed and the loop goes on with the next pass")
    void failingPassKeepsTheLoopAlive() throws Exception {
        CountDownLatch after = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        PollingLoop loop = new PollingLoop("failing-loop", Duration.ofMillis(1), () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("a bug in the pass");
            }
            after.countDown();
            return false;
        });
        loop.start(() -> { });
        try {
            assertThat(after.await(10, TimeUnit.SECONDS)).as("a pass after the failed one").isTrue();
        } finally {
            loop.stop();
        }
    }

    @Test
    @DisplayName("stop ends the loop after the pass in progress: no pass starts after stop returned")
    void noPassAfterStop() throws Exception {
        AtomicInteger passes = new AtomicInteger();
        CountDownLatch first = new CountDownLatch(1);
        PollingLoop loop = new PollingLoop("busy-loop", Duration.ofMillis(1), () -> {
            passes.incrementAndGet();
            first.countDown();
            return true; // always busy: no park between passes
        });
        loop.start(() -> { });
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        loop.stop();
        int atStop = passes.get();
        Thread.sleep(20);
        assertThat(passes.get()).isEqualTo(atStop);
    }

    @Test
    @DisplayName("a poll interval that is zero or negative is a clear error")
    void badPollInterval() {
        assertThatThrownBy(() -> new PollingLoop("x", Duration.ZERO, () -> false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pollInterval");
    }
}

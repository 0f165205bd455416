package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flame graphs from a tiny JFR recording made here: a thread spinning the CPU, one allocating, and virtual
 * threads waiting on a {@link ProfiledLock} (whose waits reach JFR only as {@code archlab.LockWait}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FlameGraphsTest {

    private List<Path> files;
    /** The same graphs of a recording with no sample: the converter's HTML template, titled alike; one with frames is larger. */
    private List<Path> emptyFiles;
    private static volatile long spinSink;
    private static volatile Object allocationSink;

    @BeforeAll
    void recordAndRender(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("tiny.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            r.enable("jdk.ObjectAllocationSample").with("throttle", "2000/s").withStackTrace();
            r.enable(LockWaitEvent.NAME).withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            Thread spinner = Thread.ofPlatform().start(FlameGraphsTest::spinForTheFlameGraph);
            Thread allocator = Thread.ofPlatform().start(FlameGraphsTest::allocateForTheFlameGraph);
            waitOnTheLockForTheFlameGraph();
            spinner.join();
            allocator.join();
            r.stop();
            r.dump(jfr);
        }
        files = FlameGraphs.render(jfr, dir.resolve("out"), "tiny", "test-module / tiny");
        Path emptyJfr = dir.resolve("empty.jfr");
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
            r.dump(emptyJfr);
        }
        emptyFiles = FlameGraphs.render(emptyJfr, dir.resolve("empty"), "tiny", "test-module / tiny");
    }

    private static void spinForTheFlameGraph() {
        long end = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        spinSink = x;
    }

    private static void allocateForTheFlameGraph() {
        long end = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < end) {
            allocationSink = new byte[4_096];
        }
    }

    private static void waitOnTheLockForTheFlameGraph() throws InterruptedException {
        ProfiledLock lock = new ProfiledLock("tiny");
        lock.lock();
        List<Thread> waiters = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                waiters.add(Thread.ofVirtual().start(() -> {
                    lock.lock();
                    lock.unlock();
                }));
            }
            Thread.sleep(50);
        } finally {
            lock.unlock();
        }
        for (Thread t : waiters) {
            t.join();
        }
    }

    private Path file(String suffix) {
        return file(files, suffix);
    }

    private static Path file(List<Path> among, String suffix) {
        return among.stream().filter(f -> f.getFileName().toString().equals("tiny-" + suffix + ".html")).findFirst()
                .orElseThrow(() -> new AssertionError("no tiny-" + suffix + ".html among " + among));
    }

    private long emptyGraphBytes(String suffix) throws IOException {
        return Files.size(file(emptyFiles, suffix));
    }

    @Test
    @DisplayName("the CPU flame graph is written, titled with module and run, and shows the spinning method (JDK samples read as runnable)")
    void cpu() throws Exception {
        String html = Files.readString(file("cpu"));
        assertThat(Files.size(file("cpu"))).as("bytes, against the empty graph's").isGreaterThan(emptyGraphBytes("cpu"));
        assertThat(html).contains("test-module / tiny: CPU").contains("spinForTheFlameGraph");
    }

    @Test
    @DisplayName("the allocation flame graph is written and shows the allocating method")
    void alloc() throws Exception {
        String html = Files.readString(file("alloc"));
        assertThat(Files.size(file("alloc"))).as("bytes, against the empty graph's").isGreaterThan(emptyGraphBytes("alloc"));
        assertThat(html).contains("test-module / tiny: allocation").contains("allocateForTheFlameGraph");
    }

    @Test
    @DisplayName("the lock flame graph is built from archlab.LockWait: virtual threads' waits on a ProfiledLock show")
    void lock() throws Exception {
        String html = Files.readString(file("lock"));
        assertThat(html).contains("test-module / tiny: lock wait").contains("ProfiledLock.lock");
    }
}

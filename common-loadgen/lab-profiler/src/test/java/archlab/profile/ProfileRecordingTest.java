package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One short JFR recording of a synthetic workload on platform threads (lock contention, allocation, CPU spin,
 * an explicit GC), read back once; each test checks one claim about the report.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("JfrRecorder + ProfileReport on a synthetic platform-thread workload")
class ProfileRecordingTest {

    private static final String THIS_CLASS = ProfileRecordingTest.class.getName() + ".";
    private static final int CONTENDERS = 4;
    private static final int ROUNDS = 12;
    private static final long HOLD_MILLIS = 5;
    private static final long BUSY_NANOS = 400_000_000L;

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static volatile Object sink;
    private static volatile long spinResult;

    private ProfileReport report;
    private Path file;

    @BeforeAll
    void recordWorkload() throws Exception {
        Path dir = Path.of(System.getProperty("archlab.reports.dir", "target/reports"), "profile");
        file = dir.resolve("profile-recording-test.jfr");
        try (JfrRecorder jfr = JfrRecorder.start(ProfileSettings.defaults())) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < CONTENDERS; i++) {
                threads.add(Thread.ofPlatform().name("contender-" + i).start(ProfileRecordingTest::contend));
            }
            threads.add(Thread.ofPlatform().name("allocator").start(ProfileRecordingTest::allocatesALot));
            threads.add(Thread.ofPlatform().name("spinner").start(ProfileRecordingTest::spinsTheCpu));
            for (Thread t : threads) {
                t.join();
            }
            System.gc();
            jfr.stopAndDump(file);
        }
        report = ProfileReport.read(file);
        System.out.println(report.render(8));
    }

    private static void contend() {
        for (int i = 0; i < ROUNDS; i++) {
            holdsTheLock();
        }
    }

    static void holdsTheLock() {
        LOCK.lock();
        try {
            Thread.sleep(HOLD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            LOCK.unlock();
        }
    }

    static void allocatesALot() {
        long end = System.nanoTime() + BUSY_NANOS;
        List<Object> keep = new ArrayList<>();
        int i = 0;
        while (System.nanoTime() < end) {
            keep.add(new byte[4096]);
            keep.add("order-" + i++);
            if (keep.size() > 20_000) {
                sink = keep;
                keep = new ArrayList<>();
            }
        }
        sink = keep;
    }

    static void spinsTheCpu() {
        long end = System.nanoTime() + BUSY_NANOS;
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        spinResult = x;
    }

    @Test
    @DisplayName("the lock table's cum column names the contending method, and its stacks hold >= 80% of all lock wait")
    void lockTableNamesTheContendingMethod() {
        assertThat(report.lockTable().row(THIS_CLASS + "holdsTheLock"))
                .hasValueSatisfying(r -> assertThat(r.cumPercent()).isGreaterThanOrEqualTo(80));
        assertThat(report.lockWaitNanos()).isPositive();
        assertThat(report.lockWaitNanosWhere(THIS_CLASS))
                .isGreaterThanOrEqualTo((long) (0.8 * report.lockWaitNanos()));
        assertThat(report.lockWaitByBlocker()).containsKey("java.util.concurrent.locks.ReentrantLock$NonfairSync");
        assertThat(report.events().lockParks()).isPositive();
    }

    @Test
    @DisplayName("lock wait is the sum of wait durations: about what the contenders queued behind each other, never more than they ran")
    void lockWaitIsPlausible() {
        // Each hold is ~5 ms; with 4 contenders most of them wait for others' holds. Loose bounds only.
        long holds = (long) CONTENDERS * ROUNDS * HOLD_MILLIS * 1_000_000L;
        assertThat(report.lockWaitNanosWhere(THIS_CLASS + "holdsTheLock"))
                .isGreaterThan(holds / 10)
                .isLessThan((long) CONTENDERS * report.durationNanos());
    }

    @Test
    @DisplayName("the allocation table contains allocatesALot, and the estimate of allocated bytes is positive")
    void allocationTableContainsTheAllocator() {
        assertThat(report.allocationTable().row(THIS_CLASS + "allocatesALot"))
                .hasValueSatisfying(r -> assertThat(r.cumPercent()).isGreaterThan(20));
        assertThat(report.gc().allocatedBytesEstimate()).isPositive();
        assertThat(report.gc().allocationRateMBps()).isPositive();
    }

    @Test
    @DisplayName("the CPU table contains the spinner, and the CPU line counts its samples")
    void cpuTableContainsTheSpinner() {
        assertThat(report.cpuTable().row(THIS_CLASS + "spinsTheCpu")).isPresent();
        assertThat(report.cpu().samples()).isEqualTo(report.events().executionSamples()).isPositive();
        assertThat(report.cpu().samplePeriodNanos()).isEqualTo(10_000_000L);
        assertThat(report.cpu().cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(report.cpu().render()).startsWith("Duration: ").contains("Total samples = ")
                .contains("of " + report.cpu().cores() + " cores");
    }

    @Test
    @DisplayName("in every table flat% sums to ~100%, sum% rises monotonically to ~100%, and cum >= flat in every row")
    void tablesAreConsistent() {
        for (TopTable t : List.of(report.lockTable(), report.cpuTable(), report.allocationTable())) {
            assertThat(t.rows()).as(t.title()).isNotEmpty();
            assertThat(t.rows().stream().mapToDouble(TopRow::flatPercent).sum()).as(t.title()).isCloseTo(100, within(0.01));
            double previous = 0;
            for (TopRow r : t.rows()) {
                assertThat(r.sumPercent()).as("%s: sum%% at %s", t.title(), r.method()).isGreaterThanOrEqualTo(previous - 1e-9);
                assertThat(r.cum()).as("%s: cum >= flat for %s", t.title(), r.method()).isGreaterThanOrEqualTo(r.flat() - 1e-6);
                assertThat(r.cumPercent()).isLessThanOrEqualTo(100 + 1e-6);
                previous = r.sumPercent();
            }
            assertThat(previous).as(t.title()).isCloseTo(100, within(0.01));
            assertThat(t.rows().stream().mapToDouble(TopRow::flat).sum()).isCloseTo(t.total(), within(t.total() * 1e-9));
        }
    }

    @Test
    @DisplayName("an explicit System.gc() inside the recording shows as at least one collection with a pause")
    void gcSummaryCountsTheExplicitGc() {
        Assumptions.assumeFalse(ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+DisableExplicitGC"),
                "System.gc() is disabled in this JVM");
        assertThat(report.gc().collections()).isGreaterThanOrEqualTo(1);
        assertThat(report.gc().longestPauseNanos()).isPositive();
        assertThat(report.gc().totalPauseNanos()).isGreaterThanOrEqualTo(report.gc().longestPauseNanos());
        assertThat(report.gc().render()).startsWith("gc collections=").contains("estimate");
    }

    @Test
    @DisplayName("the .jfr file stays on disk, and the report serialises to JSON with Jackson")
    void fileStaysAndReportIsJson() throws Exception {
        assertThat(file).exists();
        assertThat(Files.size(file)).isPositive();
        assertThat(report.file()).isEqualTo(file.toAbsolutePath().toString());
        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(report));
        assertThat(json.path("lockTable").path("rows").isArray()).isTrue();
        assertThat(json.path("gc").path("collections").isInt()).isTrue();
        assertThat(json.path("cpu").path("samples").asLong()).isEqualTo(report.cpu().samples());
        assertThat(json.has("notes")).isTrue();
    }

    @Test
    @DisplayName("the optional JDK-frame filter moves flat from JDK leaf frames to the application method")
    void jdkFrameFilterMovesFlatToApplicationCode() {
        ProfileReport filtered = ProfileReport.read(file, ProfileReport.jdkFrames());
        assertThat(report.lockTable().rows().get(0).method()).startsWith("jdk.");
        assertThat(filtered.lockTable().row(THIS_CLASS + "holdsTheLock"))
                .hasValueSatisfying(r -> assertThat(r.flatPercent()).isGreaterThanOrEqualTo(80));
        assertThat(filtered.lockWaitNanos()).isEqualTo(report.lockWaitNanos());
    }
}

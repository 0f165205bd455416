package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Who kept the machine busy while a claim was judged: a disturbance is the student's own — judged as measured — only
 * when the machine was saturated and the student's processes used at least {@link StudentMeter#STUDENT_SHARE} of its
 * busy time then; the grader's own load and a busy neighbour leave the claim not judged.
 */
class StudentMeterUseTest {

    /** A use with the given saturated CPU time and shares; the rest as a metered attempt might have it. */
    private static StudentMeter.Use use(double saturatedSeconds, double student, double grader) {
        return new StudentMeter.Use(3.5, 4.0, 1.25, 300L << 20, 2, new StudentMeter.Saturation(saturatedSeconds, student, grader));
    }

    @Test
    @DisplayName("a saturated machine the student's processes kept at least 60 % busy is the student's own disturbance")
    void studentsOwnDisturbance() {
        assertThat(use(2.0, 0.7, 0.2).disturbedByTheStudent()).isTrue();
        assertThat(use(2.0, 0.95, 0.05).disturbedByTheStudent()).isTrue();
        assertThat(use(2.0, 0.6, 0.0).disturbedByTheStudent()).as("exactly the share").isTrue();
        assertThat(use(0.05, 1.0, 0.0).disturbedByTheStudent()).as("a little saturation counts").isTrue();
    }

    @Test
    @DisplayName("the grader's own load or other processes saturating the machine is not the student's disturbance")
    void othersDisturbance() {
        assertThat(use(2.0, 0.35, 0.65).disturbedByTheStudent()).as("an honest service under the grader's load").isFalse();
        assertThat(use(2.0, 0.0, 0.85).disturbedByTheStudent()).as("the grader alone").isFalse();
        assertThat(use(2.0, 0.1, 0.1).disturbedByTheStudent()).as("a neighbour").isFalse();
        assertThat(use(2.0, 0.5, 0.25).othersShareOfSaturated()).isCloseTo(0.25, within(1e-9));
    }

    @Test
    @DisplayName("with nothing saturated there is no disturbance of the student's, whatever the shares say")
    void nothingSaturated() {
        assertThat(use(0, 0.9, 0.1).disturbedByTheStudent()).isFalse();
        assertThat(use(0, 0, 0).disturbedByTheStudent()).isFalse();
        assertThat(StudentMeter.Use.NONE.disturbedByTheStudent()).isFalse();
    }

    @Test
    @DisplayName("the others' share is what the student and the grader did not use, never below 0")
    void othersShare() {
        assertThat(use(2.0, 0.6, 0.3).othersShareOfSaturated()).isCloseTo(0.1, within(1e-9));
        assertThat(use(2.0, 0.7, 0.6).othersShareOfSaturated()).isZero();
        assertThat(use(2.0, 0, 0).othersShareOfSaturated()).isEqualTo(1.0);
    }

    @Test
    @DisplayName("describe() names the solution's, the grader's and the other processes' shares of the saturated time, in %")
    void describeNamesTheThreeShares() {
        String d = use(2.0, 0.5, 0.25).describe();
        assertThat(d).contains("while the machine was saturated (2.0 s of CPU)")
                .contains("the solution 50 %", "the grader 25 %", "other processes 25 %")
                .contains("3.5 s of CPU in 4.0 s", "1.25 of " + Runtime.getRuntime().availableProcessors() + " cores", "300 MB resident", "2 process(es)");
    }

    @Test
    @DisplayName("metering this JVM across a 100 ms CPU burn counts its CPU time, its memory and one process")
    void metersThisJvm() {
        StudentMeter.Use use;
        try (StudentMeter meter = StudentMeter.start(() -> List.of(ProcessHandle.current()))) {
            long start = System.nanoTime();
            long sink = 0;
            // burn at least 100 ms; on until the sampler (every 50 ms, in ticks of 10 ms) has counted some, at most 450 ms
            while (System.nanoTime() - start < 100_000_000L
                    || (meter.use().cpuSeconds() == 0 && System.nanoTime() - start < 450_000_000L)) {
                for (int i = 0; i < 10_000; i++) {
                    sink += i * 31L ^ sink >>> 3;
                }
            }
            use = meter.use();
            assertThat(sink).isNotEqualTo(42);
        }
        assertThat(use.cpuSeconds()).isPositive();
        assertThat(use.processes()).isEqualTo(1);
        assertThat(use.peakRssBytes()).isPositive();
        assertThat(use.wallSeconds()).isGreaterThanOrEqualTo(0.1);
    }
}

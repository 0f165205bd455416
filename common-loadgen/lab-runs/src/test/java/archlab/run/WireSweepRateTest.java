package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.Knee;
import archlab.report.SweepRow;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WireSweepRateTest {

    private static final long SLACK_NANOS = 6_000_000L;
    private static final MachineCpu.Use USE = new MachineCpu.Use(80, 70);

    private static Knee kneeAt(int rate, int firstPast) {
        return new Knee(rate, new Knee.Rule(0.99, 12_000, "test"), List.of(rate), List.of(), firstPast);
    }

    @Test
    @DisplayName("a sweep row over the wire adds up to what ended: never-started requests time out, a 429 is rejected and a pay past the pool's 409 is pool_exh, each taken out of failed once, never below what failed")
    void rowAddsUp() {
        SweepRow r = WireSweepRate.row(1000, 3000, 0, new WireSweepRate.Ends(2800, 50, 120, 30, 70, 40));
        assertThat(r.timedOut()).isEqualTo(80);
        assertThat(r.rejected()).isEqualTo(70);
        assertThat(r.poolExhausted()).isEqualTo(40);
        assertThat(r.failed()).isEqualTo(10);
        assertThat(r.completed() + r.timedOut() + r.failed() + r.rejected() + r.poolExhausted()).isEqualTo(3000);
        assertThat(r.goodput()).isEqualTo(2800 / 3000.0);
        // more 429s and 409s seen than failures counted (a late 429 ended as timed out): no count goes negative
        SweepRow late = WireSweepRate.row(1000, 100, 0, new WireSweepRate.Ends(90, 5, 5, 0, 8, 8));
        assertThat(late.rejected()).isEqualTo(5);
        assertThat(late.poolExhausted()).isZero();
        assertThat(late.failed()).isZero();
    }

    @Test
    @DisplayName("which side gave first past the knee: the generator when it was late with its connections free, the server when its answers held the connections, else the server and the service")
    void whoGaveFirst() {
        WireSweepRate.Side atKnee = new WireSweepRate.Side(8000, 30, USE, 500, 0, 24_000);
        WireSweepRate.Side lateAlone = new WireSweepRate.Side(16000, 90, USE, 20_000, 10, 48_000);
        WireSweepRate.Side heldByServer = new WireSweepRate.Side(16000, 40, USE, 20_000, 5_000, 48_000);
        WireSweepRate.Side onTime = new WireSweepRate.Side(16000, 40, USE, 2_000, 0, 48_000);
        assertThat(verdict(List.of(atKnee, lateAlone))).startsWith("the generator saturated first");
        assertThat(verdict(List.of(atKnee, heldByServer))).startsWith("the server gave first").contains("5000 of 48000");
        assertThat(verdict(List.of(atKnee, onTime))).startsWith("the server and the service gave first");
        assertThat(WireSweepRate.whoSaturated(List.of(atKnee), new Knee(8000, new Knee.Rule(0.99, 12_000, "t"),
                List.of(8000), List.of(), null), SLACK_NANOS)).last().asString().startsWith("no rate past the knee");
        // one core's 40% of a 2-core machine is 20% of the cores: the rest of a 70% JVM is the server's and the service's
        int cores = Runtime.getRuntime().availableProcessors();
        assertThat(onTime.serverAndServicePercent()).isEqualTo(Math.max(0, 70 - 40.0 / cores));
    }

    private static String verdict(List<WireSweepRate.Side> sides) {
        List<String> lines = WireSweepRate.whoSaturated(sides, kneeAt(8000, 16000), SLACK_NANOS);
        assertThat(lines).hasSize(sides.size() + 2);
        return lines.get(lines.size() - 1);
    }
}

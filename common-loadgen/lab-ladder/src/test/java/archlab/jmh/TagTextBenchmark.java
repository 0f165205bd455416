package archlab.jmh;

import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrderView;
import archlab.ladder.compute.PageTag;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The trap: <b>{@code +=} on a string in a loop</b> (the article: "循环 500 次产生了大量临时对象"). Each {@code +=}
 * makes a new string and copies all the text before it, so a page of n orders copies O(n²) bytes. Wrong:
 * {@code concatInLoop}. Right: {@code builder}, one {@link StringBuilder} appended to. Both give the page's same tag
 * ({@link PageTag}); the ladder's {@code string-builder} rung is this change under load.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class TagTextBenchmark {

    private List<OrderView> views;

    @Setup
    public void page() {
        views = BusyMonth.views();
    }

    @Benchmark
    public String concatInLoop() {
        return PageTag.of(views, Compute.Text.CONCAT_IN_LOOP, Compute.Encoding.JSON);
    }

    @Benchmark
    public String builder() {
        return PageTag.of(views, Compute.Text.BUILDER, Compute.Encoding.JSON);
    }
}

package archlab.jmh;

import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrderView;
import archlab.ladder.compute.OrdersBody;
import java.time.YearMonth;
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
 * The trap: <b>a text format where a binary one would do</b> (the article: "JSON 序列化从 Jackson 换成 protobuf…体积也小了
 * 70%"). Wrong: {@code jackson}, every field's name written as text and every number as digits. Right: {@code protobuf},
 * field tags and varints from code protoc generated. One operation encodes a busy month's page of 250 orders; the
 * ladder's {@code protobuf} rung is this change under load, and its report has the bodies' sizes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class BodyBenchmark {

    private static final YearMonth MONTH = YearMonth.of(2026, 5);
    private List<OrderView> views;

    @Setup
    public void page() {
        views = BusyMonth.views();
    }

    @Benchmark
    public byte[] jackson() {
        return OrdersBody.encode(1, MONTH, views, Compute.Encoding.JSON);
    }

    @Benchmark
    public byte[] protobuf() {
        return OrdersBody.encode(1, MONTH, views, Compute.Encoding.PROTOBUF);
    }
}

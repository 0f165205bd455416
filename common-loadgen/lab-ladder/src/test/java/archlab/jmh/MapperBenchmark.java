package archlab.jmh;

import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrderEntity;
import archlab.ladder.compute.OrderMapping;
import archlab.ladder.compute.OrderView;
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
 * The trap: <b>a reflection mapper on the hot path</b> (the article: "Dozer 这类反射映射工具一次转换要反射几十次").
 * Wrong: {@code dozer}, each property found by name and copied by reflection at every call. Right: {@code mapstruct},
 * the getter-to-setter calls MapStruct's processor wrote at compile time. One operation maps a busy month's 250 orders;
 * the ladder's {@code mapstruct} rung is this change under load.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class MapperBenchmark {

    private List<OrderEntity> entities;

    @Setup
    public void month() {
        entities = BusyMonth.entities();
    }

    @Benchmark
    public List<OrderView> dozer() {
        return OrderMapping.views(entities, Compute.Mapping.REFLECTION);
    }

    @Benchmark
    public List<OrderView> mapstruct() {
        return OrderMapping.views(entities, Compute.Mapping.GENERATED);
    }
}

package archlab.jmh;

import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrdersBody;
import archlab.ladder.compute.RequestLog;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The trap: <b>the whole answer logged synchronously on every request</b> (the article: "每次请求都把整个订单对象序列化成
 * JSON 写进日志"). Wrong: {@code wholeAnswerSync}, the page serialised to JSON for an INFO line that the calling thread
 * writes. Right: {@code sampledKeysAsync}, one call in 100 logs its key fields into an asynchronous appender's queue.
 * Both on Log4j 2 writing to {@code /dev/null}: every write is made (one per event, flushed), no gigabytes kept; the
 * ladder's {@code sampled-log} rung is this change under load, writing a real file.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RequestLogBenchmark {

    private static final YearMonth MONTH = YearMonth.of(2026, 5);
    private OrdersBody.Page page;
    private RequestLog whole;
    private RequestLog sampled;

    @Setup(Level.Trial)
    public void logs() {
        page = new OrdersBody.Page(1, MONTH.toString(), BusyMonth.views());
        whole = new RequestLog("jmh-whole", Path.of("/dev/null"), Compute.Logging.WHOLE_ANSWER_SYNC);
        sampled = new RequestLog("jmh-sampled", Path.of("/dev/null"), Compute.Logging.SAMPLED_KEYS_ASYNC);
    }

    @TearDown(Level.Trial)
    public void close() {
        whole.close();
        sampled.close();
    }

    @Benchmark
    public void wholeAnswerSync() {
        whole.answered(1, MONTH, page, 20_000);
    }

    @Benchmark
    public void sampledKeysAsync() {
        sampled.answered(1, MONTH, page, 20_000);
    }
}

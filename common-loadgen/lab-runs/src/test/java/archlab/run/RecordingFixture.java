package archlab.run;

import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.downstream.DownstreamCounts;
import archlab.request.RequestContext;
import archlab.loadgen.Workload;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixture whose requests do nothing but count themselves, and which logs every call {@link LabRun} makes on it,
 * in order, so that tests can check what LabRun asks and when.
 */
final class RecordingFixture implements LabFixture {

    /** The calls LabRun made, in order: "workload", "beforeRun", "afterRun executed=N", "downstreamCounts", "money", "extra", "close". */
    final List<String> calls = new CopyOnWriteArrayList<>();
    final AtomicLong executed = new AtomicLong();

    @Override
    public Workload workload() {
        calls.add("workload");
        return new Workload() {
            @Override
            public String operationOf(long sequence) {
                return sequence % 2 == 0 ? "even" : "odd";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
                executed.incrementAndGet();
            }
        };
    }

    @Override
    public void beforeRun() {
        calls.add("beforeRun executed=" + executed.get());
    }

    @Override
    public void afterRun() {
        calls.add("afterRun executed=" + executed.get());
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        calls.add("downstreamCounts");
        return DownstreamCounts.builder().inventoryCalls(executed.get()).build();
    }

    @Override
    public MoneyEvidence money() {
        calls.add("money");
        return new MoneyEvidence(0, 0, 0, 0, 0);
    }

    @Override
    public List<ReportLine> extra() {
        calls.add("extra");
        return List.of(new ReportLine("executed", executed.get()));
    }

    /** @return the index of the first call starting with {@code prefix}, or -1 */
    int indexOf(String prefix) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        calls.add("close");
    }
}

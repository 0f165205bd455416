package archlab.run;

import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.downstream.DownstreamCounts;
import archlab.loadgen.Workload;
import java.util.List;

/**
 * One freshly built system under test, as a chapter module wires it: its workload and what it can
 * tell about downstream calls and money once the run is over. {@link LabRun} asks for a new fixture
 * for every repetition, so runs never share state, and closes each one once its figures are read
 * ({@link #close()}: a fixture with a database drops its schema there).
 */
public interface LabFixture extends AutoCloseable {

    /** @return the workload the runner drives (already prepared: pool created) */
    Workload workload();

    /** Called just before the load starts (after the fixture is built and warmed): e.g. start a scenario's clock. Default: nothing. */
    default void beforeRun() {
    }

    /** Called after the run, before the figures are read: e.g. let an outbox relay drain. Default: nothing. */
    default void afterRun() {
    }

    /** @return calls that reached each downstream stub */
    DownstreamCounts downstreamCounts();

    /** @return the ledger's and the order table's evidence */
    MoneyEvidence money();

    /** @return chapter-specific figures (outbox depth, cache hit ratio…); default none */
    default List<ReportLine> extra() {
        return List.of();
    }

    /**
     * Releases what the fixture holds outside the heap (a connection pool, a database schema), after every figure was
     * read: the last call a fixture gets. Default: nothing.
     */
    @Override
    default void close() {
    }
}

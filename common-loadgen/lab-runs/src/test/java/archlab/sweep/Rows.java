package archlab.sweep;

import archlab.report.SweepRow;

/** Hand-made sweep rows for the knee and evidence tests: every figure chosen, nothing measured. */
final class Rows {

    private Rows() {
    }

    /** A row at {@code rate} req/s for 1 s: {@code completed} of {@code rate} offered, the rest timed out. */
    static SweepRow row(int rate, long completed, long p99Micros) {
        return row(rate, completed, p99Micros, 100, 0.3);
    }

    static SweepRow row(int rate, long completed, long p99Micros, long sendLagP99Micros, double cpuShare) {
        return SweepRow.builder().ratePerSecond(rate).offered(rate).completed(completed).timedOut(rate - completed)
                .goodput((double) completed / rate).rpsCompleted(completed).p50Micros(p99Micros / 2)
                .p99Micros(p99Micros).sendLagP99Micros(sendLagP99Micros).cpuShare(cpuShare).build();
    }
}

package archlab.profile;

import java.util.Locale;
import java.util.function.Predicate;

/**
 * Rendering: a {@link ProfileReport} as the text block printed after "where the time went" in every run report,
 * and quoted line for line by the book.
 *
 * <p><b>Contract: the text is part of the lab's output.</b> The chapters quote these lines and the saved reports
 * in {@code book/results} hold them, so any change here changes every report. The order is fixed: lock table,
 * {@code lock wait by blocker:}, CPU table with Go's {@code Duration: … Total samples = …} line slipped in under
 * its title, allocation table, GC line, event counts, notes, where the recording is. Nothing here reads JFR or
 * decides anything: it only prints what {@link ProfileAssembler} put in the report.
 *
 * <p>Stateless; a pure function of the report.
 */
final class ProfileText {

    private ProfileText() {
    }

    /** A CPU table of fewer samples than this is not ranked: each sample would be several percent of it. */
    static final long MIN_RANKED_SAMPLES = 20;

    /**
     * @param report   the report to print
     * @param topN     rows per table, at least 1
     * @param plumbing the methods left out of the tables when they have no flat value
     *                 ({@link TopTable#render(int, Predicate)})
     * @return the lock, CPU and allocation tables, the GC line, the event counts, the notes and where the file is
     */
    static String render(ProfileReport report, int topN, Predicate<String> plumbing) {
        StringBuilder out = new StringBuilder();
        out.append(report.lockTable().render(topN, plumbing));
        if (report.lockTable().events() > 1) {
            out.append(String.format(Locale.ROOT, "(the total sums every wait: %d waits, %s in all, in a %.2f s recording;"
                            + " threads wait at once, so it is not wall time)%n", report.lockTable().events(),
                    ValueUnit.NANOSECONDS.format(report.lockTable().total()), report.durationNanos() / 1e9));
        }
        if (!report.lockWaitByBlocker().isEmpty()) {
            out.append("lock wait by blocker:");
            report.lockWaitByBlocker().forEach((k, v) ->
                    out.append(' ').append(k).append('=').append(ValueUnit.NANOSECONDS.format(v)));
            out.append('\n');
        }
        // Go prints the Duration / Total samples line between the CPU table's title and its header
        String cpuText = report.cpuTable().render(topN, plumbing);
        int eol = cpuText.indexOf('\n') + 1;
        out.append(cpuText, 0, eol).append(report.cpu().render()).append('\n');
        long cpuSamples = report.cpuTable().events();
        if (cpuSamples > 0 && cpuSamples < MIN_RANKED_SAMPLES) {
            out.append(String.format(Locale.ROOT, "  only %d samples: too few to rank methods (one sample is %.1f %% of the table);"
                    + " the run spent little time running Java code. Rows for tools stay in the JSON report.%n",
                    cpuSamples, 100.0 / cpuSamples));
        } else {
            out.append(cpuText.substring(eol));
        }
        out.append(report.allocationTable().render(topN, plumbing));
        out.append(report.gc().render()).append('\n');
        out.append(events(report.events()));
        for (String n : report.notes()) {
            if (n.equals(report.lockTable().note())) {
                continue; // printed with the lock table already
            }
            out.append("NOTE: ").append(n).append('\n');
        }
        out.append("recording: ").append(report.file())
                .append(" (open in JDK Mission Control, or `jfr print` / `jfr view`)\n");
        return out.toString();
    }

    /** @return the {@code events: …} line, ending in the platform's line separator (as {@code %n} writes it) */
    private static String events(EventCounts events) {
        return String.format(Locale.ROOT,
                "events: cpu_samples=%d alloc_samples=%d (dropped %d) lock_parks=%d monitor_enters=%d"
                        + " profiled_lock_waits_virtual=%d non_lock_parks_ignored=%d"
                        + " gcs=%d virtual_threads_started=%d truncated_stacks=%d%n",
                events.executionSamples(), events.allocationSamples(), events.allocationSamplesDropped(),
                events.lockParks(), events.monitorEnters(), events.profiledLockWaits(), events.nonLockParks(),
                events.garbageCollections(), events.virtualThreadsStarted(), events.truncatedStacks());
    }
}

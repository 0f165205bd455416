package archlab.profile;

import java.util.Locale;

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

    /**
     * @param report the report to print
     * @param topN   rows per table, at least 1
     * @return the lock, CPU and allocation tables, the GC line, the event counts, the notes and where the file is
     */
    static String render(ProfileReport report, int topN) {
        StringBuilder out = new StringBuilder();
        out.append(report.lockTable().render(topN, TopTable.PLUMBING));
        if (!report.lockWaitByBlocker().isEmpty()) {
            out.append("lock wait by blocker:");
            report.lockWaitByBlocker().forEach((k, v) ->
                    out.append(' ').append(k).append('=').append(ValueUnit.NANOSECONDS.format(v)));
            out.append('\n');
        }
        // Go prints the Duration / Total samples line between the CPU table's title and its header
        String cpuText = report.cpuTable().render(topN, TopTable.PLUMBING);
        int eol = cpuText.indexOf('\n') + 1;
        out.append(cpuText, 0, eol).append(report.cpu().render()).append('\n').append(cpuText.substring(eol));
        out.append(report.allocationTable().render(topN, TopTable.PLUMBING));
        out.append(report.gc().render()).append('\n');
        out.append(events(report.events()));
        for (String n : report.notes()) {
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

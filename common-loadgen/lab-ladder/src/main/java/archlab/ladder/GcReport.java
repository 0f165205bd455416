package archlab.ladder;

import archlab.ladder.gc.CollectorRuns;
import archlab.ladder.gc.GcFigures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ladder report's garbage-collection sections: what the collector did in each rung's measured phase (the test's
 * JVM), then one rung under each collector and heap size in a JVM of its own ({@link CollectorRuns}) — collections,
 * pauses (p50, the longest, the longest young one, their share of the phase), ZGC's allocation stalls, the JVM's
 * allocation rate, and whether the pauses explain the run's p99 ({@link GcFigures#verdict}).
 *
 * <p>Stateless; thread-safe.
 */
final class GcReport {

    private GcReport() {
    }

    /** @return the sections' Markdown; the second only when collector runs ran */
    static String markdown(List<LadderRun.RungResult> results, List<CollectorRuns.Result> collectors) {
        StringBuilder md = new StringBuilder();
        if (!results.isEmpty()) {
            GcFigures first = results.get(0).server().gc();
            md.append("\n## Garbage collection per rung (the test's JVM: ").append(first.jvm().collectors()).append(", heap ")
                    .append(first.jvm().heapMaxBytes() >> 20).append(" MiB)\n\n");
            md.append("| rung (GC) | collections | pauses | pause p50 | pause max | young pause max | pause share | JVM MiB/s | p50 | p99 | GC and the p99 |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (LadderRun.RungResult r : results) {
                md.append(row(r.rung().name(), r.server().gc(), r.load().latency().p50Micros(), r.load().latency().p99Micros()));
            }
        }
        if (!collectors.isEmpty()) {
            md.append("\n## The collector and the heap: ").append(collectors.get(0).rung())
                    .append(" in a JVM of its own per setting\n\n");
            md.append("The same rung, load and data, once per collector and heap size (`-Xms` = `-Xmx`), each JVM started"
                    + " for it with `-Xlog:gc*` (the logs beside this report) and run twice: the first run warms its JIT, the"
                    + " second is the row. Latencies between rows are one run each on a shared machine: shown, not judged; a"
                    + " heap too small for the rate shows as requests not answered (or, out of memory, stops the run).\n\n");
            md.append("| setting (GC) | p50 | p99 | p99.9 | answered | heap MiB | business KiB | JVM MiB/s | collections | pause p50 | young pause max | pause max | pause share | allocation stalls | GC and the p99 |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (CollectorRuns.Result c : collectors) {
                GcFigures gc = c.gc();
                CollectorRuns.Latency l = c.latency();
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d of %d | %d | %.1f | %.0f | %d | %s | %s | %s | %.2f %% | %d | %s |%n",
                        c.setup().name(), ms(l.p50Micros()), ms(l.p99Micros()), ms(l.p999Micros()), l.completed(), l.offered(),
                        gc.jvm().heapMaxBytes() >> 20, c.businessBytes() / 1024, gc.allocation().mibPerSecond(), gc.collections(),
                        ms(gc.pauses().p50() / 1e3), ms(gc.youngPauses().max() / 1e3), ms(gc.pauses().max() / 1e3),
                        100 * gc.pauseShare(), gc.stalls().count(), label(gc.verdict(l.p50Micros(), l.p99Micros()))));
            }
            md.append("\nEach JVM's collectors, as it named them:");
            collectors.forEach(c -> md.append(" ").append(c.setup().name()).append(": ").append(c.gc().jvm().collectors()).append(';'));
            md.append(" GC logs:");
            collectors.forEach(c -> md.append(" `").append(c.gcLog()).append('`'));
            md.append(". Allocation stalls are JFR's `jdk.ZAllocationStall` events in the measured phase (a thread waiting for"
                    + " ZGC to free memory, at a heap too small for the allocation rate): they are not pauses, and the verdict"
                    + " does not judge them. `heap MiB` is the JVM's own limit (`Runtime.maxMemory`).\n");
        }
        if (!md.isEmpty()) {
            md.append(String.format(Locale.ROOT, "%nPauses are JFR's `jdk.GCPhasePause` events that started in the measured phase"
                    + " (every stop-the-world pause, of any collector: young, remark, cleanup, full; ZGC's are the short ones"
                    + " around its concurrent work); `young` those of young collections (G1New, ParallelScavenge, ZGC Minor). The"
                    + " JVM's allocation is its own count over all threads (the load generator's too: it runs in the same JVM)."
                    + " The rule: a request arriving in a pause waits for the rest of it, so a median request lands past the"
                    + " p99 when more of the pause is left than the p99's excess over the p50; the pauses explain the p99 when"
                    + " the part of the phase where that holds, Σ max(0, pause − excess), is at least %.0f %% of it (an open"
                    + " loop's requests arrive evenly). `pauses too short`: no pause was longer than the excess; `pauses too"
                    + " rare`: some were, over less of the phase. It judges the pauses alone: not the queue they leave, the collector's"
                    + " threads' CPU, nor allocation stalls.%n", 100 * GcFigures.P99_SHARE));
        }
        return md.toString();
    }

    private static String row(String name, GcFigures gc, double p50Micros, double p99Micros) {
        return String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %.2f %% | %.0f | %s | %s | %s |%n", name, gc.collections(),
                gc.pauses().count(), ms(gc.pauses().p50() / 1e3), ms(gc.pauses().max() / 1e3), ms(gc.youngPauses().max() / 1e3),
                100 * gc.pauseShare(), gc.allocation().mibPerSecond(), ms(p50Micros), ms(p99Micros), label(gc.verdict(p50Micros, p99Micros)));
    }

    /** @return a rung's GC figures for {@code ladder.json} */
    static Map<String, Object> json(GcFigures gc, double p50Micros, double p99Micros) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("collectors", gc.jvm().collectors());
        j.put("heap_max_mib", gc.jvm().heapMaxBytes() / (double) (1 << 20));
        j.put("collections", gc.collections());
        j.put("pauses", gc.pauses().count());
        j.put("pause_p50_ms", gc.pauses().p50() / 1e6);
        j.put("pause_p99_ms", gc.pauses().p99() / 1e6);
        j.put("pause_max_ms", gc.pauses().max() / 1e6);
        j.put("pause_total_ms", gc.pauses().total() / 1e6);
        j.put("young_pauses", gc.youngPauses().count());
        j.put("young_pause_p50_ms", gc.youngPauses().p50() / 1e6);
        j.put("young_pause_max_ms", gc.youngPauses().max() / 1e6);
        j.put("pause_share", gc.pauseShare());
        j.put("pushed_past_p99_share", gc.pushedPastP99Share(p50Micros, p99Micros));
        j.put("allocation_stalls", gc.stalls().count());
        j.put("allocation_stall_ms", gc.stalls().totalNanos() / 1e6);
        j.put("allocated_bytes", gc.allocation().bytes());
        j.put("allocation_mib_per_s", gc.allocation().mibPerSecond());
        j.put("verdict", gc.verdict(p50Micros, p99Micros).name().toLowerCase(Locale.ROOT));
        j.put("verdict_text", gc.verdictText(p50Micros, p99Micros));
        return j;
    }

    /** @return the collector runs for {@code ladder.json}, each with its setting's name */
    static List<Map<String, Object>> json(List<CollectorRuns.Result> collectors) {
        return collectors.stream().map(c -> {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("setting", c.setup().name());
            j.put("collector", c.setup().collector().name().toLowerCase(Locale.ROOT));
            j.put("heap_mib", c.setup().heapMiB());
            j.put("rung", c.rung());
            j.put("p50_ms", c.latency().p50Micros() / 1_000);
            j.put("p99_ms", c.latency().p99Micros() / 1_000);
            j.put("p999_ms", c.latency().p999Micros() / 1_000);
            j.put("mean_us", c.latency().meanMicros());
            j.put("completed", c.latency().completed());
            j.put("offered", c.latency().offered());
            j.put("business_bytes", c.businessBytes());
            j.put("gc", json(c.gc(), c.latency().p50Micros(), c.latency().p99Micros()));
            j.put("gc_log", c.gcLog());
            return j;
        }).toList();
    }

    private static String label(GcFigures.Verdict v) {
        return switch (v) {
            case NO_GC -> "no pause";
            case TOO_RARE -> "pauses too rare";
            case TOO_SHORT -> "pauses too short";
            case EXPLAINS_P99 -> "pauses explain it";
        };
    }

    private static String ms(double micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1_000.0);
    }
}

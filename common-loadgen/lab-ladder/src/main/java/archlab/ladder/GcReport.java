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
 * pauses (p50, p99, the longest, their share of the phase), the JVM's allocation rate, and whether the pauses explain
 * the run's p99 ({@link GcFigures#verdict}).
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
            md.append("\n## Garbage collection per rung (the test's JVM: ").append(first.collectors()).append(", heap ")
                    .append(Runtime.getRuntime().maxMemory() >> 20).append(" MiB)\n\n");
            md.append("| rung (GC) | collections | pauses | pause p50 | pause p99 | pause max | pause share | JVM MiB/s | p50 | p99 | GC and the p99 |\n");
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
                    + " heap too small for the rate shows as requests not answered.\n\n");
            md.append("| setting (GC) | p50 | p99 | p99.9 | answered | business KiB | JVM MiB/s | collections | pause p50 | pause p99 | pause max | pause share | allocation stalls | GC and the p99 |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (CollectorRuns.Result c : collectors) {
                GcFigures gc = c.gc();
                CollectorRuns.Latency l = c.latency();
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d of %d | %.1f | %.0f | %d | %s | %s | %s | %.2f %% | %d | %s |%n",
                        c.setup().name(), ms(l.p50Micros()), ms(l.p99Micros()), ms(l.p999Micros()), l.completed(), l.offered(),
                        c.businessBytes() / 1024, gc.allocationMiBPerSecond(), gc.collections(), ms(gc.pauses().p50() / 1e3),
                        ms(gc.pauses().p99() / 1e3), ms(gc.pauses().max() / 1e3), 100 * gc.pauseShare(), c.log().allocationStalls(),
                        label(gc.verdict(l.p50Micros(), l.p99Micros()))));
            }
            md.append("\nEach JVM's collectors, as it named them:");
            collectors.forEach(c -> md.append(" ").append(c.setup().name()).append(": ").append(c.gc().collectors()).append(';'));
            md.append(" GC logs:");
            collectors.forEach(c -> md.append(" `").append(c.log().file()).append('`'));
            md.append(". Allocation stalls are the GC log's lines that report one (a thread waiting for the collector to free"
                    + " memory; ZGC's, at a heap too small for the allocation rate) over the JVM's whole life, its warm-up"
                    + " run's included: they are not pauses, so the verdict does not see them.\n");
        }
        if (!md.isEmpty()) {
            md.append(String.format(Locale.ROOT, "%nPauses are JFR's `jdk.GCPhasePause` events (every stop-the-world pause, of any"
                    + " collector; ZGC's are the short ones around its concurrent work), the JVM's allocation its own count over"
                    + " all threads (the load generator's too: it runs in the same JVM). The rule: GC explains a p99 when the"
                    + " pauses cover at least %.0f %% of the measured phase (an open loop's requests arrive evenly, so about as"
                    + " many meet one) and the longest is at least half the p99's excess over the p50.%n", 100 * GcFigures.P99_SHARE));
        }
        return md.toString();
    }

    private static String row(String name, GcFigures gc, double p50Micros, double p99Micros) {
        return String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %.2f %% | %.0f | %s | %s | %s |%n", name, gc.collections(),
                gc.pauses().count(), ms(gc.pauses().p50() / 1e3), ms(gc.pauses().p99() / 1e3), ms(gc.pauses().max() / 1e3),
                100 * gc.pauseShare(), gc.allocationMiBPerSecond(), ms(p50Micros), ms(p99Micros), label(gc.verdict(p50Micros, p99Micros)));
    }

    /** @return a rung's GC figures for {@code ladder.json} */
    static Map<String, Object> json(GcFigures gc, double p50Micros, double p99Micros) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("collectors", gc.collectors());
        j.put("collections", gc.collections());
        j.put("pauses", gc.pauses().count());
        j.put("pause_p50_ms", gc.pauses().p50() / 1e6);
        j.put("pause_p99_ms", gc.pauses().p99() / 1e6);
        j.put("pause_max_ms", gc.pauses().max() / 1e6);
        j.put("pause_total_ms", gc.pauses().total() / 1e6);
        j.put("pause_share", gc.pauseShare());
        j.put("allocated_bytes", gc.allocatedBytes());
        j.put("allocation_mib_per_s", gc.allocationMiBPerSecond());
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
            j.put("gc_log", c.log().file());
            j.put("allocation_stalls", c.log().allocationStalls());
            return j;
        }).toList();
    }

    private static String label(GcFigures.Verdict v) {
        return switch (v) {
            case NO_GC -> "no GC";
            case TOO_RARE -> "too rare";
            case TOO_SHORT -> "too short";
            case EXPLAINS_P99 -> "explains the p99";
        };
    }

    private static String ms(double micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1_000.0);
    }
}

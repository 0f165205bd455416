package archlab.ladder;

import archlab.ladder.compute.ComputeSegments;
import archlab.ladder.compute.ComputeSegments.Stage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ladder report's business-code section: per rung, each stage's mean time and the bytes its thread allocated per
 * answered request ({@link ComputeSegments}), the body's size and the request log's bytes per request — the article's
 * flame-graph reading (string building, reflection mapping, JSON, logging) as a table that shrinks rung by rung.
 *
 * <p>Stateless; thread-safe.
 */
final class BusinessReport {

    private BusinessReport() {
    }

    /** @return the section's Markdown: two tables (time, allocation) and how to read them */
    static String markdown(List<LadderRun.RungResult> results) {
        StringBuilder md = new StringBuilder("\n## The business code per request (the servlet's own measure)\n\n");
        md.append("Mean per answered request of the measured phase. `rows`: the rows into entities (the same code on every"
                + " rung); `map`: entities to views; `tag`: the page's ETag text; `encode`: the body; `log`: the request log;"
                + " `trace`: the request's trace (the request's own thread only: an asynchronous appender's or a batch"
                + " processor's writing is not in it).\n\n");
        md.append("| rung (µs) | business | rows | map | tag | encode | log | trace | against the rung before |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        LadderRun.RungResult previous = null;
        for (LadderRun.RungResult r : results) {
            ComputeSegments.Split s = r.business().split();
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s |%n", r.rung().name(),
                    s.businessMicros(), us(s, Stage.ROWS), us(s, Stage.MAP), us(s, Stage.TAG), us(s, Stage.ENCODE),
                    us(s, Stage.LOG), us(s, Stage.TRACE), previous == null ? "—" : ratio(previous.business().split().businessMicros(), s.businessMicros())));
            previous = r;
        }
        md.append("\n| rung (KiB allocated) | business | rows | map | tag | encode | log | trace | body bytes | log bytes |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LadderRun.RungResult r : results) {
            ComputeSegments.Split s = r.business().split();
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f |%n",
                    r.rung().name(), s.businessBytes() / 1024, kib(s, Stage.ROWS), kib(s, Stage.MAP), kib(s, Stage.TAG),
                    kib(s, Stage.ENCODE), kib(s, Stage.LOG), kib(s, Stage.TRACE), s.bodyBytes(), r.business().logBytesPerRequest()));
        }
        md.append(profileTable(results, "CPU samples", BusinessProfile::cpu, 1, BusinessProfile.PLACES));
        // the servlet's places only: where the load generator, the pool and the JVM allocated is not the business code's
        md.append(profileTable(results, "KiB allocated in the servlet, JFR's estimate", BusinessProfile::allocation, 1024,
                BusinessProfile.SERVLET_PLACES));
        md.append("\nJDK Flight Recorder over the measured phase: CPU samples (`jdk.ExecutionSample`, a thread running Java"
                + " code, every millisecond) and allocation samples (`jdk.ObjectAllocationSample`, each weighing the bytes"
                + " its thread allocated since the one before; each thread's first sample, which carries what it allocated before the"
                + " recording, left out), counted under the"
                + " business stage the stack is in; `in Dozer` and the others: what had a frame of that library anywhere in"
                + " the stack. Flame graphs:");
        results.stream().flatMap(r -> r.business().flameGraphs().stream())
                .forEach(f -> md.append(" `").append(f.getFileName()).append('`'));
        md.append(" (beside this report).\n");
        md.append("\nBytes are the JVM's per-thread count of what the request's thread allocated (not sampled): they do not"
                + " move with the machine's noise as times do, so they are what the ladder's test holds each compute rung"
                + " to.\n");
        return md.toString();
    }

    private static String profileTable(List<LadderRun.RungResult> results, String what,
                                       java.util.function.Function<BusinessProfile, BusinessProfile.Tally> tally, long unit,
                                       List<String> places) {
        StringBuilder md = new StringBuilder("\n| rung (" + what + ") | all |");
        places.forEach(place -> md.append(' ').append(place).append(" |"));
        BusinessProfile.LIBRARIES.keySet().forEach(l -> md.append(" in ").append(l).append(" |"));
        md.append("\n|---|---:|").append("---:|".repeat(places.size() + BusinessProfile.LIBRARIES.size())).append('\n');
        for (LadderRun.RungResult r : results) {
            BusinessProfile.Tally t = tally.apply(r.business().profile());
            long all = places.stream().mapToLong(t::at).sum();
            md.append("| ").append(r.rung().name()).append(" | ").append(all / unit).append(" |");
            places.forEach(place -> md.append(' ').append(t.at(place) / unit).append(" |"));
            t.inLibrary().values().forEach(n -> md.append(' ').append(n / unit).append(" |"));
            md.append('\n');
        }
        return md.toString();
    }

    /** @return the rung's business figures for {@code ladder.json} */
    static Map<String, Object> json(LadderRun.RungResult r) {
        ComputeSegments.Split s = r.business().split();
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("compute", r.rung().compute());
        b.put("tracing", r.rung().tracing());
        b.put("requests", s.requests());
        b.put("business_us", s.businessMicros());
        b.put("business_bytes", s.businessBytes());
        b.put("business_kib", s.businessBytes() / 1024);
        Map<String, Object> stages = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            stages.put(stage.name().toLowerCase(Locale.ROOT), Map.of("us", s.stage(stage).micros(), "bytes", s.stage(stage).bytes()));
        }
        b.put("stages", stages);
        b.put("body_bytes", s.bodyBytes());
        b.put("log_bytes_per_request", r.business().logBytesPerRequest());
        BusinessProfile p = r.business().profile();
        b.put("cpu_samples", p.cpu().total());
        b.put("cpu_samples_by_place", p.cpu().byPlace());
        b.put("cpu_samples_in_library", p.cpu().inLibrary());
        b.put("allocated_bytes_jfr", p.allocation().total());
        b.put("allocated_bytes_jfr_by_place", p.allocation().byPlace());
        b.put("allocated_bytes_jfr_in_library", p.allocation().inLibrary());
        b.put("flame_graphs", r.business().flameGraphs().stream().map(f -> f.getFileName().toString()).toList());
        return b;
    }

    private static double us(ComputeSegments.Split s, Stage stage) {
        return s.stage(stage).micros();
    }

    private static double kib(ComputeSegments.Split s, Stage stage) {
        return s.stage(stage).bytes() / 1024;
    }

    private static String ratio(double before, double now) {
        return before <= 0 ? "—" : String.format(Locale.ROOT, "×%.2f", now / before);
    }
}

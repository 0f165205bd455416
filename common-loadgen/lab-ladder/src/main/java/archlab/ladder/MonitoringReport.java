package archlab.ladder;

import archlab.ladder.compute.ComputeSegments;
import archlab.ladder.compute.ComputeSegments.Stage;
import archlab.ladder.monitor.TraceSegments;
import archlab.ladder.monitor.Tracing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The ladder report's monitoring section: what each rung's tracing cost per request (its time and allocation on the
 * request's thread, its file), the A/B of the rung that went from tracing every request to one in a hundred (the
 * article's "把监控埋点临时关掉一版" read the other way: the same load, tracing cut to a sample), and what the traces kept
 * say about each stage against what every request measured — a sample's mean with its 95 % interval.
 *
 * <p>Stateless; thread-safe.
 */
final class MonitoringReport {

    private MonitoringReport() {
    }

    /** @return the section's Markdown */
    static String markdown(List<LadderRun.RungResult> results) {
        StringBuilder md = new StringBuilder("\n## Monitoring's own cost: tracing (OpenTelemetry's SDK)\n\n");
        md.append("`every request`: each request traced, its whole answer serialised (Jackson) as an attribute, each span exported as it ends by the"
                + " request's thread (the simple span processor; one line per span, flushed); `1 in "
                + archlab.ladder.monitor.RequestTracer.SAMPLE_ONE_IN + "`: sampled by trace id, key fields, exported in"
                + " batches by the batch processor's thread. `trace` µs and KiB: the tracing's own work on the request's thread,"
                + " per answered request.\n\n");
        md.append("| rung (tracing) | tracing | traced | answered | trace µs | trace KiB | trace file bytes |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (LadderRun.RungResult r : results) {
            ComputeSegments.Split s = r.business().split();
            LadderRun.Monitoring m = r.business().monitoring();
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %.0f | %.1f | %.0f |%n", r.rung().name(), label(m.tracing()),
                    m.tracedRequests(), s.requests(), s.stage(Stage.TRACE).micros(), s.stage(Stage.TRACE).bytes() / 1024,
                    r.business().traceBytesPerRequest()));
        }
        abPair(results).ifPresent(ab -> md.append(ab(ab.get(0), ab.get(1))));
        for (LadderRun.RungResult r : results) {
            if (abPair(results).map(ab -> ab.contains(r)).orElse(false)) {
                md.append(traced(r));
            }
        }
        abPair(results).ifPresent(ab -> md.append(String.format(Locale.ROOT, "%nThe interval: Student's t at 95 %% times the"
                + " standard error, times the finite-population correction √((N − n)/(N − 1)) for n traces of N answered"
                + " requests, so 0 when every request is traced (the traces are then every request, and the two means agree by"
                + " construction). It assumes the traces kept are a fair draw, and enough of them for their mean to be about"
                + " normal: a cost that one request in a hundred pays (the sampled log's line) is missed by the %d traces of %s,"
                + " and so few traces' standard deviation understates a long tail. A `no` says the sample was too small for that"
                + " stage, not that the tracer mismeasured.%n", ab.get(1).business().monitoring().tracedRequests(),
                ab.get(1).rung().name())));
        return md.toString();
    }

    /** @return the last rung that traced every request and the rung after it, when that one samples */
    static Optional<List<LadderRun.RungResult>> abPair(List<LadderRun.RungResult> results) {
        for (int i = results.size() - 1; i > 0; i--) {
            if (results.get(i - 1).rung().tracing() == Tracing.EVERY_REQUEST && results.get(i).rung().tracing() == Tracing.SAMPLED) {
                return Optional.of(List.of(results.get(i - 1), results.get(i)));
            }
        }
        return Optional.empty();
    }

    private static String ab(LadderRun.RungResult every, LadderRun.RungResult sampled) {
        var a = every.load().latency();
        var b = sampled.load().latency();
        return String.format(Locale.ROOT, "%nThe A/B, %s (every request) → %s (1 in %d), the same load: client mean %.0f → %.0f µs"
                        + " (%s), p50 %.0f → %.0f µs (%s), p99 %.0f → %.0f µs (%s, one run's p99: shown, not judged); the"
                        + " request's thread's tracing %.1f → %.1f µs and %.1f → %.1f KiB per request.%n",
                every.rung().name(), sampled.rung().name(), archlab.ladder.monitor.RequestTracer.SAMPLE_ONE_IN,
                a.meanMicros(), b.meanMicros(), change(a.meanMicros(), b.meanMicros()),
                (double) a.p50Micros(), (double) b.p50Micros(), change(a.p50Micros(), b.p50Micros()),
                (double) a.p99Micros(), (double) b.p99Micros(), change(a.p99Micros(), b.p99Micros()),
                traceMicros(every), traceMicros(sampled), traceBytes(every) / 1024, traceBytes(sampled) / 1024);
    }

    /** @return the rung's traces against every request: each stage's mean from the traces, ± its 95 % half-width */
    private static String traced(LadderRun.RungResult r) {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%n%s: what the %d traces kept say (µs), against every"
                + " answered request's own measure (%d)%n%n", r.rung().name(), r.business().monitoring().tracedRequests(),
                r.business().split().requests()));
        md.append("| span | spans | mean from the traces | ± 95 % | every request's mean | inside the interval |\n");
        md.append("|---|---:|---:|---:|---:|---|\n");
        for (Map.Entry<String, Double> e : exact(r).entrySet()) {
            TraceSegments.Estimate t = r.business().monitoring().traced().get(e.getKey());
            if (t == null) {
                md.append(String.format(Locale.ROOT, "| %s | 0 | — | — | %.1f | — |%n", e.getKey(), e.getValue()));
            } else {
                md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %s | %.1f | %s |%n", e.getKey(), t.spans(), t.meanMicros(),
                        Double.isInfinite(t.halfWidthMicros()) ? "—" : String.format(Locale.ROOT, "%.1f", t.halfWidthMicros()),
                        e.getValue(), inside(t, e.getValue(), r.business().split().requests())));
            }
        }
        return md.toString();
    }

    /**
     * @return whether every request's mean lies inside the traces' interval: "—" when no interval can be stated, "every
     *         request traced" when the traces are every request (their means agree by construction)
     */
    static String inside(TraceSegments.Estimate t, double everyRequestMicros, long answered) {
        if (t.spans() >= answered) {
            return "every request traced";
        }
        return Double.isInfinite(t.halfWidthMicros()) ? "—" : t.covers(everyRequestMicros) ? "yes" : "no";
    }

    /** @return each traced stage's mean over every answered request, µs, by span name (the database's read: wait + database) */
    static Map<String, Double> exact(LadderRun.RungResult r) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("database", r.segments().connectionWaitMicros() + r.segments().databaseMicros());
        ComputeSegments.Split s = r.business().split();
        for (Stage stage : Stage.values()) {
            if (stage != Stage.TRACE) {
                m.put(stage.name().toLowerCase(Locale.ROOT), s.stage(stage).micros());
            }
        }
        return m;
    }

    /** @return the rung's monitoring figures for {@code ladder.json} */
    static Map<String, Object> json(LadderRun.RungResult r) {
        LadderRun.Monitoring m = r.business().monitoring();
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("tracing", m.tracing().name().toLowerCase(Locale.ROOT));
        j.put("traced_requests", m.tracedRequests());
        j.put("trace_us", traceMicros(r));
        j.put("trace_bytes", traceBytes(r));
        j.put("trace_file_bytes_per_request", r.business().traceBytesPerRequest());
        Map<String, Object> spans = new LinkedHashMap<>();
        Map<String, Double> exact = exact(r);
        m.traced().forEach((name, t) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("spans", t.spans());
            e.put("mean_us", t.meanMicros());
            e.put("sd_us", t.sdMicros());
            e.put("half95_us", Double.isInfinite(t.halfWidthMicros()) ? null : t.halfWidthMicros());
            e.put("every_request_us", exact.get(name));
            spans.put(name, e);
        });
        j.put("traced", new java.util.TreeMap<>(spans));
        return j;
    }

    private static double traceMicros(LadderRun.RungResult r) {
        return r.business().split().stage(Stage.TRACE).micros();
    }

    private static double traceBytes(LadderRun.RungResult r) {
        return r.business().split().stage(Stage.TRACE).bytes();
    }

    private static String label(Tracing t) {
        return t == Tracing.EVERY_REQUEST ? "every request" : "1 in " + archlab.ladder.monitor.RequestTracer.SAMPLE_ONE_IN;
    }

    private static String change(double before, double after) {
        return before <= 0 ? "—" : String.format(Locale.ROOT, "%+.0f %%", 100 * (after - before) / before);
    }
}

package archlab.run;

import static archlab.run.LongRunReport.format;

import archlab.run.LongRunReport.Latency;
import archlab.run.LongRunReport.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** The text of a {@link LongRunReport}: one line of settings, a table of windows, the slices and the verdicts. */
final class LongRunText {

    private LongRunText() {
    }

    static String of(LongRunReport r) {
        List<String> lines = new ArrayList<>();
        LongRunSettings s = r.settings();
        lines.add(format("long_run module=%s name=%s warmup=%ss measured=%ss stability=%ss %s", r.run().module(), r.run().name(),
                seconds(s.warmup().toMillis() / 1e3), seconds(s.measured().toMillis() / 1e3),
                seconds(s.stability().toMillis() / 1e3), s.keepsTheArticlesRule()
                        ? "rule=article (warm up, then at least 2 minutes measured, then a stability window)"
                        : "rule=short_form (shorter than the article's 30 s + 2 min + 30 s: a check that it runs, not the rule)"));
        lines.add("");
        lines.add(format("%-10s %8s %9s %9s %10s %9s %9s %9s %9s %10s %11s %13s", "window", "seconds", "requests",
                "timed_out", "mean_us", "p50_us", "p99_us", "p999_us", "max_us", "hiccup_us", "gc_per_min", "file_B_req"));
        for (Window w : r.windows()) {
            Latency l = w.latency();
            lines.add(format("%-10s %8.1f %9d %9d %10.0f %9d %9d %9d %9d %10s %11.1f %13s", w.name(), w.seconds(),
                    l.requests(), w.timedOut(), l.meanMicros(), l.p50Micros(), l.p99Micros(), l.p999Micros(), l.maxMicros(),
                    w.hiccupMaxMicros() < 0 ? "-" : String.valueOf(w.hiccupMaxMicros()), w.gcPausesPerMinute(), w.bytesWrittenPerRequest() < 0 ? "unknown"
                            : format("%.1f", w.bytesWrittenPerRequest())));
        }
        Latency shortRun = r.shortRun();
        lines.add(format("%-10s %8.1f %9d %9s %10.0f %9d %9d %9d %9d", "short_run", r.slices().seconds(), shortRun.requests(),
                "-", shortRun.meanMicros(), shortRun.p50Micros(), shortRun.p99Micros(), shortRun.p999Micros(), shortRun.maxMicros()));
        lines.add("");
        Latency measured = r.window(LongRunReport.MEASURED).latency();
        lines.add(format("slices of %s s in the measured window: %d, their p99 min/median/max = %d/%d/%d us",
                seconds(r.slices().seconds()), r.slices().p99sMicros().size(), r.slices().min(), r.slices().median(), r.slices().max()));
        lines.add(format("short_vs_long p50=%s p99=%s p999=%s (the short run's over the measured window's)",
                ratio(shortRun.p50Micros(), measured.p50Micros()), ratio(shortRun.p99Micros(), measured.p99Micros()),
                ratio(shortRun.p999Micros(), measured.p999Micros())));
        lines.add(format("p999_rests_on short_run=%.1f measured=%.1f requests above it", shortRun.requests() / 1_000.0,
                measured.requests() / 1_000.0));
        lines.add("");
        lines.add("--- verdict");
        double trust = r.shortRunTrustFactor();
        lines.add(Double.isNaN(trust) ? "trust: not judged (no p99 in a slice or the window)"
                : format("trust: a %s s run's p99 of this code lands within x%.2f of the measured window's (the slices' and"
                        + " the short run's farthest); the short run's p99 is %s the slices' range", seconds(r.slices().seconds()),
                        trust, r.shortRunInsideTheSlices() ? "inside" : "outside"));
        lines.add(!r.judged() ? "stability: not judged (no slice: the measured window is shorter than the short run)"
                : format("stability: the stability window's p99 (%d us) is %s the slices' range: %s",
                        r.window(LongRunReport.STABILITY).latency().p99Micros(), r.stable() ? "inside" : "outside",
                        r.stable() ? "the measured p99 held" : "the load's p99 drifted after the measured window"));
        if (!r.extra().isEmpty()) {
            lines.add("");
            lines.add("--- the long run's fixture, after it (over the whole long run, warm-up included)");
            new TreeMap<>(r.extra()).forEach((k, v) -> lines.add(k + "=" + v));
        }
        return String.join("\n", lines) + "\n";
    }

    /** @return {@code 3}, {@code 0.2}: seconds without trailing zeros */
    static String seconds(double s) {
        return java.math.BigDecimal.valueOf(Math.round(s * 1_000) / 1_000.0).stripTrailingZeros().toPlainString();
    }

    private static String ratio(long shortMicros, long longMicros) {
        return longMicros <= 0 ? "n/a" : format("%.2f", (double) shortMicros / longMicros);
    }
}

package archlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The lines a reader reads first: what the run's outcome was, what limited it (and with what share of what), who held
 * the lock, on a durable store how far pay stayed from its floor ({@link DurableFloor}), what the money and delivery evidence says, and whether the machine disturbed the run; and, where the book
 * has a saved run of the same report, its figures beside this one's. Every line is derived from the report's own JSON
 * (as {@link ReportWriter} writes it), so a saved report gets the same verdict as a fresh one.
 *
 * <p>The trap it avoids: a report that opens with a number and leaves the cause 30 lines further down, in a table that
 * does not say what it sums. A line here names its figure's denominator: "of 4500 traced requests", "of the 3.20 s
 * run".
 *
 * <p>Stateless; thread-safe.
 */
public final class RunVerdict {

    /** A stall (hiccup p99) or a send lag (p99) above this, in µs, means the machine may have shaped the run's latencies. */
    public static final long DISTURBED_MICROS = 5_000;

    private RunVerdict() {
    }

    /**
     * @param report a run's report as {@link ReportWriter} wrote it
     * @param book   the book's saved report of the same module and name, if there is one
     * @return three to seven lines, each {@code "<what>: <finding>"} ({@code limited by} is {@code most time in} for a run
     *         that completed everything)
     */
    public static List<String> lines(JsonNode report, Optional<JsonNode> book) {
        JsonNode run = report.path("run");
        List<String> out = new ArrayList<>();
        out.add("outcome: " + outcome(run));
        limitedBy(run).ifPresent(out::add);
        held(run).ifPresent(h -> out.add("held: " + h));
        DurableFloor.verdictLine(report).ifPresent(out::add);
        money(report.path("money")).ifPresent(m -> out.add("money: " + m + diskBeside(report)));
        out.add("machine: " + machine(run));
        book.ifPresent(b -> out.add("book: " + (sameLoad(b.path("run").path("spec"), run.path("spec"))
                ? bookBeside(b.path("run"), run)
                : "its saved run of this report had another load (" + describe(b.path("run").path("spec"))
                        + " against this run's " + describe(run.path("spec")) + "): not put side by side")));
        return out;
    }

    static String outcome(JsonNode run) {
        long offered = run.path("offered").asLong();
        long completed = run.path("completed").asLong();
        long attempts = run.path("attempts").asLong(run.path("started").asLong());
        return String.format(Locale.ROOT, "%d of %d requests completed (%s); %d timed out, %d failed, %d rejected;"
                        + " p99 %s of the %d that reached the service and were not rejected%s",
                completed, offered, percent(completed, offered), run.path("timedOut").asLong(), run.path("failed").asLong(),
                run.path("rejected").asLong(), millis(run.path("latency").path("p99Micros").asDouble()),
                run.path("latency").path("count").asLong(),
                attempts > run.path("started").asLong() ? String.format(Locale.ROOT,
                        " (callers retried: %d attempts for %d requests)", attempts, offered) : "");
    }

    /** The segment with the most self time over every traced request, and its share in each operation. */
    static Optional<String> limitedBy(JsonNode run) {
        Map<String, Long> selfBySegment = new LinkedHashMap<>();
        Map<String, Double> shareByOperation = new LinkedHashMap<>();
        long total = 0;
        for (JsonNode row : run.path("segments")) {
            long self = row.path("selfTotalNanos").asLong();
            selfBySegment.merge(row.path("segment").asText(), self, Long::sum);
            total += self;
        }
        if (total == 0) {
            return Optional.empty();
        }
        String top = selfBySegment.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        for (JsonNode row : run.path("segments")) {
            if (row.path("segment").asText().equals(top)) {
                shareByOperation.put(row.path("operation").asText(), row.path("sharePercent").asDouble());
            }
        }
        List<String> perOp = shareByOperation.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.1f %%", e.getKey(), e.getValue())).toList();
        boolean allCompleted = run.path("completed").asLong() == run.path("offered").asLong();
        return Optional.of(String.format(Locale.ROOT,
                (allCompleted ? "most time in: " : "limited by: ")
                        + "%s, %s of the self time of %d traced requests (%s summed over them); of each operation's own: %s",
                top, percent(selfBySegment.get(top), total), run.path("tracedRequests").asLong(),
                total >= 1e9 ? String.format(Locale.ROOT, "%.1f s", total / 1e9) : millis(total / 1e3),
                String.join(", ", perOp)));
    }

    /** Who held the lock, summed over the run: the {@code lock.held} segments' inclusive time. */
    static Optional<String> held(JsonNode run) {
        record Held(String operation, double nanos) {
        }
        double wallNanos = run.path("wallNanos").asDouble();
        List<Held> held = new ArrayList<>();
        for (JsonNode row : run.path("segments")) {
            if (row.path("segment").asText().equals("lock.held")) {
                held.add(new Held(row.path("operation").asText(),
                        row.path("inclusiveMeanMicros").asDouble() * 1_000 * row.path("requests").asLong()));
            }
        }
        if (held.isEmpty() || wallNanos <= 0) {
            return Optional.empty();
        }
        held.sort(Comparator.comparingDouble(Held::nanos).reversed());
        Held top = held.get(0);
        long traced = run.path("tracedRequests").asLong();
        long started = run.path("started").asLong();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s held the lock %.2f s of the %.2f s run (%s)",
                top.operation(), top.nanos() / 1e9, wallNanos / 1e9, percent(top.nanos(), wallNanos)));
        if (traced < started) {
            s.append(String.format(Locale.ROOT, " in its %d traced requests of %d (the untraced ones held it too)", traced, started));
        }
        held.subList(1, held.size()).forEach(h -> s.append(String.format(Locale.ROOT, "; %s %.2f s", h.operation(), h.nanos() / 1e9)));
        return Optional.of(s.append(" (traced requests' time inside the lock, nested calls included)").toString());
    }

    static Optional<String> money(JsonNode money) {
        if (money.isMissingNode() || money.isNull()) {
            return Optional.empty();
        }
        long afterReconcile = money.path("chargedButNotPaidAfterReconcile").asLong(MoneyEvidence.NOT_MEASURED);
        String charged = afterReconcile == MoneyEvidence.NOT_MEASURED
                ? money.path("chargedButNotPaid").asLong() + " charged but not PAID (nothing reconciles them)"
                : afterReconcile + " charged but not PAID after reconcile";
        return Optional.of(String.format(Locale.ROOT,
                "%s, %s double charges, %s reservations leaked; delivery: %s PAID orders not notified, %s notified more than once",
                charged, measured(money.path("doubleCharges")), measured(money.path("reservationsLeaked")),
                measured(money.path("paidButNotNotified")), measured(money.path("notifiedMoreThanOnce"))));
    }

    private static final java.util.regex.Pattern WAIT_SHARE = java.util.regex.Pattern.compile("wait_share=([0-9.]+)%");

    /**
     * Beside orders charged but not PAID on a durable store whose disk did not keep pace (the commit probe waited more
     * than {@link DurableFloor#KEPT_PACE_SHARE} of the run): the disk's pace, as a PAID commit that misses its deadline
     * behind a stalled disk leaves its charge; empty otherwise (in memory, on a disk that kept pace, or where a
     * reconciler ran).
     */
    static String diskBeside(JsonNode report) {
        JsonNode money = report.path("money");
        boolean unreconciled = money.path("chargedButNotPaidAfterReconcile").asLong(MoneyEvidence.NOT_MEASURED) == MoneyEvidence.NOT_MEASURED;
        if (money.path("chargedButNotPaid").asLong() <= 0 || !unreconciled) {
            return "";
        }
        for (JsonNode line : report.path("extra")) {
            java.util.regex.Matcher share = WAIT_SHARE.matcher(line.path("value").asText());
            if (line.path("name").asText().equals("store_commit_probe") && share.find()
                    && Double.parseDouble(share.group(1)) / 100 > DurableFloor.KEPT_PACE_SHARE) {
                String probe = line.path("value").asText().replaceFirst("^.*? (p50=)", "$1");
                return " — the disk's pace meanwhile: " + probe + " (a PAID commit that misses its deadline leaves its charge;"
                        + " chapter 12.3's reconciler finishes such orders)";
            }
        }
        return "";
    }

    static String machine(JsonNode run) {
        JsonNode hiccups = run.path("hiccups");
        long lagP99 = run.path("sendLag").path("p99Micros").asLong();
        if (hiccups.path("samples").asLong() == 0) {
            return String.format(Locale.ROOT, "send-lag p99 %s; no hiccup probe ran, so the machine's own stalls are unknown",
                    millis(lagP99));
        }
        long hiccupP99 = hiccups.path("p99Micros").asLong();
        boolean disturbed = hiccupP99 > DISTURBED_MICROS || lagP99 > DISTURBED_MICROS;
        return String.format(Locale.ROOT, "%s: hiccup p99 %s (max %s), send-lag p99 %s; %s", disturbed ? "disturbed" : "not disturbed",
                millis(hiccupP99), millis(hiccups.path("maxMicros").asLong()), millis(lagP99),
                disturbed ? "over " + millis(DISTURBED_MICROS) + ": the latencies measured the machine too, run again before comparing"
                        : "both within " + millis(DISTURBED_MICROS));
    }

    /** Whether two runs offered the same load: rate, duration, timeout, arrival and callers' retries. */
    static boolean sameLoad(JsonNode a, JsonNode b) {
        for (String field : new String[] {"ratePerSecond", "duration", "timeout", "arrival", "retries"}) {
            if (!a.path(field).equals(b.path(field))) {
                return false;
            }
        }
        return true;
    }

    private static String describe(JsonNode spec) {
        return spec.path("ratePerSecond").asText() + "/s for " + spec.path("duration").asText() + ", timeout "
                + spec.path("timeout").asText() + ", arrival " + spec.path("arrival").asText() + ", retries "
                + spec.path("retries").path("maxAttempts").asText("1") + " attempts";
    }

    static String bookBeside(JsonNode bookRun, JsonNode run) {
        return String.format(Locale.ROOT, "its saved run of this report completed %d of %d (%s), p99 %s; this run %d of %d (%s), p99 %s",
                bookRun.path("completed").asLong(), bookRun.path("offered").asLong(),
                percent(bookRun.path("completed").asLong(), bookRun.path("offered").asLong()),
                millis(bookRun.path("latency").path("p99Micros").asDouble()), run.path("completed").asLong(),
                run.path("offered").asLong(), percent(run.path("completed").asLong(), run.path("offered").asLong()),
                millis(run.path("latency").path("p99Micros").asDouble()));
    }

    /** A money figure, or "n/a" where the checkpoint cannot measure it ({@link MoneyEvidence#NOT_MEASURED}). */
    private static String measured(JsonNode figure) {
        long v = figure.asLong(MoneyEvidence.NOT_MEASURED);
        return v == MoneyEvidence.NOT_MEASURED ? "n/a" : String.valueOf(v);
    }

    private static String percent(double part, double whole) {
        return whole <= 0 ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * part / whole);
    }

    private static String millis(double micros) {
        return String.format(Locale.ROOT, "%.1f ms", micros / 1e3);
    }
}

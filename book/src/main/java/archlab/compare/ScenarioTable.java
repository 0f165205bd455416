package archlab.compare;

import java.util.Optional;
import java.time.Duration;
import archlab.timeline.Recovery;
import archlab.timeline.Interval;
import archlab.report.MoneyEvidence;
import archlab.report.ReportWriter;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioProgress;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Chapter 12.3's one table: rows scenario × checkpoint, built from the {@code scenario-<name>.json}
 * reports that each module's scenario run saved under its {@code target/reports/}. Only reports of one
 * Maven session are taken, so a root {@code mvn test -Dscenarios} shows every checkpoint of that run and
 * {@code mvn -pl <module> test -Dscenarios} that module's rows alone — never a stale report.
 *
 * <p>Thread-safety: stateless.
 */
public final class ScenarioTable {

    /** Report files are named {@code scenario-<scenario name>.json}. */
    public static final String PREFIX = ScenarioProgress.REPORT_PREFIX;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Reads a saved interval; an older report's interval lacks {@code retried} (0). */
    private static final ObjectMapper INTERVALS = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ScenarioTable() {
    }

    /**
     * One scenario run of one checkpoint. In JSON ({@code scenarios.json}) every part is unwrapped: the row's figures
     * lie flat, in the order of the parts and of their figures, as the book's {@code holds:} conditions read them.
     *
     * @param scenario   the scenario's name, e.g. "slow-downstream"
     * @param module     the checkpoint, e.g. "ch12-1-baseline"
     * @param requests   what was offered and how it ended
     * @param speed      how fast it was served
     * @param money      the ledger's evidence
     * @param resilience retries and recovery
     */
    public record Row(String scenario, String module, @JsonUnwrapped Requests requests, @JsonUnwrapped Speed speed,
                      @JsonUnwrapped Money money, @JsonUnwrapped Resilience resilience) {
    }

    /**
     * What a scenario run offered and how its requests ended.
     *
     * @param offered   requests planned
     * @param completed ok within the timeout
     * @param timedOut  ended at or past the deadline
     * @param failed    an error before the timeout
     * @param rejected  refused at once by the service
     */
    public record Requests(long offered, long completed, long timedOut, long failed, long rejected) {
    }

    /**
     * How fast a scenario run was served.
     *
     * @param rpsCompleted     completed requests per second of wall time
     * @param p50Millis        the book's p50, ms (1 ms buckets, upper edge)
     * @param p99Millis        the book's p99, ms
     * @param p999Millis       the book's p99.9, ms
     * @param maxOverrunMillis the largest time a request finished past its deadline, ms
     */
    public record Speed(double rpsCompleted, long p50Millis, long p99Millis, long p999Millis, double maxOverrunMillis) {
    }

    /**
     * The ledger's evidence of a scenario run. "n/a" figures are {@link MoneyEvidence#NOT_MEASURED}.
     *
     * @param charges                      charges the payment stub took
     * @param doubleCharges                charges beyond the first per order
     * @param chargedNotPaid               orders charged but not PAID
     * @param chargedNotPaidAfterReconcile the same once the reconciler ran
     * @param paidNotNotified              PAID orders never notified
     * @param reservationsLeaked           units reserved beyond what the PAID orders hold
     */
    public record Money(long charges, long doubleCharges, long chargedNotPaid, long chargedNotPaidAfterReconcile,
                        long paidNotNotified, long reservationsLeaked) {
    }

    /**
     * Retries and recovery of a scenario run: numbers, for the book's {@code holds:} conditions.
     *
     * @param amplification        attempts per planned request (1.0: nobody retried)
     * @param recovered            the {@link Recovery} verdict's word ({@value #NO_TRIGGER} for a scenario without a
     *                             trigger)
     * @param shareBeforeTrigger   completed / offered before the trigger ({@value #NEVER}: no trigger)
     * @param recoveredAtMillis    the start of the interval (ms since the run began) from which the run stayed back
     *                             ({@value #NEVER}: never, or no trigger)
     * @param recoveredWithinBound 1 if the verdict is yes, else 0
     */
    public record Resilience(double amplification, String recovered, double shareBeforeTrigger, long recoveredAtMillis,
                             int recoveredWithinBound) {
    }

    /** {@link Resilience#recoveredAtMillis()} and {@link Resilience#shareBeforeTrigger()} when there is nothing to say: no trigger, or never back. */
    static final long NEVER = -1;

    /** No trigger in the scenario: nothing to recover from. */
    static final String NO_TRIGGER = "-";

    /** Reads one saved scenario report. */
    public static Row read(Path json) {
        try {
            JsonNode root = JSON.readTree(json.toFile());
            JsonNode run = root.path("run");
            JsonNode money = root.path("money");
            JsonNode latency = run.path("latency");
            if (run.isMissingNode() || money.isMissingNode()) {
                throw new IllegalArgumentException(json + " is not a run report (no run / money)");
            }
            long wallNanos = run.path("wallNanos").asLong();
            long completed = run.path("completed").asLong();
            // a run over HTTP, on either kind of server thread, is the same scenario (archlab.run.Transport#reportName)
            String scenario = root.path("name").asText().substring(PREFIX.length())
                    .replaceFirst(java.util.regex.Pattern.quote(archlab.run.Transport.HTTP_SUFFIX) + "("
                            + java.util.regex.Pattern.quote(archlab.run.Transport.VIRTUAL_THREADS_SUFFIX) + ")?$", "");
            long offered = run.path("offered").asLong();
            // a report from before attempts were counted sent each request once
            double amplification = offered == 0 ? 0 : run.path("attempts").asLong(run.path("started").asLong()) / (double) offered;
            Optional<Recovery> recovery = recoveryOf(scenario, run.path("timeline"));
            return new Row(scenario, root.path("module").asText(),
                    new Requests(offered, completed, run.path("timedOut").asLong(), run.path("failed").asLong(),
                            run.path("rejected").asLong()),
                    new Speed(wallNanos == 0 ? 0 : completed * 1e9 / wallNanos, latency.path("bookP50Millis").asLong(),
                            latency.path("bookP99Millis").asLong(), latency.path("bookP999Millis").asLong(),
                            run.path("maxOverrunNanos").asLong() / 1e6),
                    new Money(money.path("charges").asLong(), money.path("doubleCharges").asLong(),
                            money.path("chargedButNotPaid").asLong(), money.path("chargedButNotPaidAfterReconcile").asLong(-1),
                            money.path("paidButNotNotified").asLong(-1), money.path("reservationsLeaked").asLong(-1)),
                    new Resilience(amplification, recovery.map(r -> r.verdict().text()).orElse(NO_TRIGGER),
                            recovery.map(r -> r.shares().goodputShareBefore()).filter(s -> !Double.isNaN(s)).orElse((double) NEVER),
                            recovery.map(r -> r.shares().recoveredAtMillis()).filter(t -> !Double.isNaN(t)).map(Math::round).orElse(NEVER),
                            recovery.filter(r -> r.verdict() == Recovery.Recovered.YES).isPresent() ? 1 : 0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + json, e);
        }
    }

    /** The recovery verdict from a saved timeline, for a known scenario (catalogue or by name only) with a trigger. */
    static Optional<Recovery> recoveryOf(String scenario, JsonNode timeline) {
        // a run with changed settings is named after them (archlab.run.ChangedSettings): scenario-incident-rate-1000 is
        // the incident's run under another load; its row keeps that name, its recovery is the incident's
        Optional<Scenario> known = java.util.stream.Stream.concat(Scenario.catalogue().stream(), Scenario.byNameOnly().stream())
                .filter(s -> s.name().equals(scenario) || scenario.startsWith(s.name() + "-"))
                .max(java.util.Comparator.comparingInt(s -> s.name().length()));
        if (known.isEmpty()) {
            return Optional.empty();
        }
        List<Interval> intervals = new ArrayList<>();
        timeline.path("intervals").forEach(i -> intervals.add(INTERVALS.convertValue(i, Interval.class)));
        List<Interval> run = intervals.stream().filter(i -> i.phase().equals(Interval.RUN)).toList();
        Duration length = timeline.path("interval").isMissingNode() ? Duration.ZERO : Duration.parse(timeline.path("interval").asText());
        return known.get().recovery(run, length);
    }

    /**
     * @param projectRoot the folder holding the modules
     * @param session     the Maven session id the reports must carry (environment.session)
     * @return every scenario row of that session, ordered by scenario (catalogue order) then module
     */
    public static List<Row> collect(Path projectRoot, String session) {
        List<Row> rows = new ArrayList<>();
        for (Path f : SideBySide.findReports(projectRoot)) {
            if (f.getFileName().toString().startsWith(PREFIX) && session.equals(SavedReports.sessionOf(f))) {
                rows.add(read(f));
            }
        }
        List<String> order = Scenario.catalogue().stream().map(Scenario::name).toList();
        rows.sort(Comparator.<Row>comparingInt(r -> order.indexOf(r.scenario()) < 0 ? Integer.MAX_VALUE : order.indexOf(r.scenario()))
                .thenComparing(Row::module));
        return rows;
    }

    /** @return the table as Markdown, with every scenario's parameters as its legend */
    public static String markdown(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| scenario | checkpoint | offered | amplification | completed | timed_out | failed | rejected | rps_completed | p50 ms | p99 ms | p999 ms | max overrun ms | recovered | charges | double charges | charged not PAID | after reconcile | PAID not notified | reservations leaked |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %d | %d | %d | %d | %.1f | %d | %d | %d | %.1f | %s | %d | %d | %d | %s | %s | %s |%n",
                    r.scenario(), r.module(), r.requests().offered(), r.resilience().amplification(), r.requests().completed(),
                    r.requests().timedOut(), r.requests().failed(), r.requests().rejected(), r.speed().rpsCompleted(),
                    r.speed().p50Millis(), r.speed().p99Millis(), r.speed().p999Millis(), r.speed().maxOverrunMillis(),
                    recovered(r.resilience()), r.money().charges(), r.money().doubleCharges(), r.money().chargedNotPaid(),
                    MoneyEvidence.show(r.money().chargedNotPaidAfterReconcile()),
                    MoneyEvidence.show(r.money().paidNotNotified()), MoneyEvidence.show(r.money().reservationsLeaked())));
        }
        sb.append("\namplification = attempts the callers sent / planned requests (1.00: nobody retried); recovered = from a point within ")
                .append(Scenario.RECOVERY_BOUND.toMillis())
                .append(" ms of the trigger's end, every window of ").append(Recovery.WINDOW)
                .append(" consecutive intervals to the end of the run completed >= ").append(Math.round(100 * Recovery.SHARE))
                .append("% of what it offered,")
                .append(" judged from the run's timeline; \"down before the trigger\": under 95% before it, nothing to recover to;")
                .append(" \"-\": the scenario has no trigger.\n");
        sb.append("\nScenarios (the book's load in each: 1,500 req/s, 3 s, timeout 200 ms):\n\n");
        for (Scenario s : Scenario.catalogue()) {
            sb.append("- **").append(s.name()).append("**: ").append(s.summary()).append(" (")
                    .append(String.join("; ", s.parameters())).append(")\n");
        }
        return sb.toString();
    }

    /** @return the recovered cell: the verdict, with the interval from which the run stayed back */
    static String recovered(Resilience r) {
        boolean judged = r.recovered().equals(Recovery.Recovered.YES.text()) || r.recovered().equals(Recovery.Recovered.NO.text());
        if (r.recoveredAtMillis() == NEVER || !judged) {
            return r.recovered();
        }
        // the start of an interval: the time axis' resolution, not a measured recovery time
        return String.format(Locale.ROOT, "%s (back from %.1f s)", r.recovered(), r.recoveredAtMillis() / 1e3);
    }

    /** Writes {@code scenarios.md} and {@code scenarios.json} to {@code dir}; returns the Markdown file. */
    public static Path write(Path dir, List<Row> rows) {
        return ReportWriter.writeTable(dir, "scenarios", markdown(rows), rows, "the scenario table");
    }
}

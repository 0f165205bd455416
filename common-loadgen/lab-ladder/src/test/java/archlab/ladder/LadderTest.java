package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.db.StoreKind;
import archlab.db.ladder.LadderDataSet;
import archlab.ladder.compute.ComputeSegments.Stage;
import archlab.ladder.gc.CollectorRuns;
import archlab.report.ReportWriter;
import archlab.run.LabProperties;
import archlab.run.LabStore;
import archlab.run.LongRunReport;
import archlab.run.LongRunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The article's ladder on the lab's PostgreSQL: {@code mvn -pl common-loadgen/lab-ladder test -Dladder} (the data set
 * is built on the first run, seconds for a million orders, and kept). Without a server it fails, naming the
 * command that starts one.
 */
@EnabledIfSystemProperty(named = "ladder", matches = ".*", disabledReason = "the ladder: twenty-five load runs (each collector's JVM runs its rung twice) on PostgreSQL, about three minutes on a million orders: mvn -pl common-loadgen/lab-ladder test -Dladder")
class LadderTest {

    @Test
    @DisplayName("the ladder runs every rung under the same load, each with its own p99; the covering index's plan is an Index Only Scan that the start's is not; Nagle's stalled p50 is at least 10× TCP_NODELAY's; the keep-alive aside opens a connection per request; the business-code rungs: less allocated in the tag, the mapping and the log, each at its rung, the body smaller on the wire with protobuf, and the slow code's libraries in the slow rung's allocation profile, Dozer gone from the fast one's; tracing every request keeps every request's trace, sampling about one in a hundred, with less allocated and written per request; the slow business code's rung under G1, ZGC and Parallel at two heap sizes, each JVM with its GC log, the small heap collecting more often; with -Dlong, the first and last rung also run the article's 3 minutes, the measured window as long as asked, a p99 per phase")
    void ladder() throws Exception {
        LadderSettings settings = LadderSettings.from(System.getProperties());
        Optional<LongRunSettings> longRun = LongRunSettings.from(System.getProperties(), LabProperties.fromSystem())
                .filter(l -> l.covers("ladder"));
        longRun.ifPresent(l -> LadderLongRun.check(settings, l)); // before minutes of ladder, not after
        LabStore chosen = LabStore.fromSystem();
        LabStore store = new LabStore(StoreKind.POSTGRES, chosen.jdbcUrl(), chosen.urlSource(), chosen.poolSize());
        store.unavailable().ifPresent(why -> {
            throw new IllegalStateException("-Dladder runs on PostgreSQL, and " + why);
        });
        String url = store.jdbcUrl().orElseThrow();
        LadderDataSet.Built data = LadderDataSet.ensure(url, settings.orders(), settings.rebuild());
        System.out.println("[ladder] data set: " + data);
        Optional<AutoExplainLog> log = AutoExplainLog.find(Path.of(System.getProperty("archlab.module.dir", ".")));
        System.out.println("[ladder] auto_explain's log: " + log.map(l -> l.path().toString()).orElse("not found"));
        List<LadderRun.RungResult> results = LadderRun.run(url, settings, log);
        Optional<LadderRun.RungResult> aside = settings.rungs().equals(Rung.LADDER)
                ? Optional.of(LadderRun.keepAliveAside(url, settings, results.get(results.size() - 1).rung(), log)) : Optional.empty();
        // the report so far, then the slow business code's rung once per collector and heap size, each in a JVM of its own
        // (the whole ladder only), then the report again with them: a collector run that fails leaves the ladder's report
        Path md = LadderReport.write(ReportWriter.reportsDir(), data, settings, results, aside, List.of());
        List<CollectorRuns.Result> collectors = settings.rungs().equals(Rung.LADDER)
                ? CollectorRuns.run(url, Rung.named(CollectorRuns.RUNG), settings) : List.of();
        md = LadderReport.write(ReportWriter.reportsDir(), data, settings, results, aside, collectors);
        System.out.println(Files.readString(md));
        // -Dlong: the article's rule on the ladder's first and last rung, each beside its short run above
        if (longRun.isPresent()) {
            for (LadderRun.RungResult r : results.size() == 1 ? results : List.of(results.get(0), results.get(results.size() - 1))) {
                LongRunReport report = LadderLongRun.run(url, settings, longRun.get(), r, ReportWriter.reportsDir(), System.out::println);
                LongRunReport.Window measured = report.window(LongRunReport.MEASURED);
                assertThat(measured.seconds()).as("%s: the measured window", r.rung().name())
                        .isGreaterThanOrEqualTo(longRun.get().measured().toMillis() / 1e3 * 0.95);
                assertThat(report.slices().p99sMicros()).as("%s: a p99 per phase", r.rung().name())
                        .hasSize(LadderLongRun.phases(longRun.get().measured(), settings.measure()));
                assertThat(measured.latency().requests()).as("%s: the rate's requests", r.rung().name())
                        .isGreaterThanOrEqualTo((long) (0.9 * settings.rate() * longRun.get().measured().toSeconds()));
            }
        }

        assertThat(results).hasSameSizeAs(settings.rungs());
        for (LadderRun.RungResult r : results) {
            assertThat(r.load().latency().p99Micros()).as("%s p99", r.rung().name()).isPositive();
            assertThat(r.database().statements().missing()).as("%s: the 10 ms rule's statements", r.rung().name()).isEmpty();
            assertThat(r.database().statements().autoExplain()).as("%s: auto_explain on the script's server", r.rung().name())
                    .contains("10ms");
            assertThat(r.database().statements().logged()).as("%s: the script's server's log, where auto_explain writes",
                    r.rung().name()).isPresent();
            if (r.rung() != Rung.START) { // the slow start may collapse: that is its lesson
                assertThat(r.load().requests().completed()).as("%s answered in time", r.rung().name())
                        .isGreaterThanOrEqualTo(r.load().requests().offered() * 99 / 100);
            }
        }
        if (settings.rungs().equals(Rung.LADDER)) {
            assertThat(results).hasSizeGreaterThanOrEqualTo(6);
            assertThat(first(results, "start").database().plan().indexOnly()).as("the start's plan").isFalse();
            LadderRun.RungResult covering = first(results, "covering");
            assertThat(covering.database().plan().indexOnly()).as("the covering index's plan: %s", covering.database().plan().line()).isTrue();
            assertThat(covering.database().plan().heapFetches()).as("heap fetches after VACUUM").isZero();
            assertThat(first(results, "start").database().plan().removedByFilter())
                    .as("the function-wrapped column: rows read then thrown away").isPositive();
            assertThat(first(results, "range").database().plan().removedByFilter()).as("the range: none thrown away").isZero();
            assertThat(first(results, "covering").segments().databaseMicros()).as("the storage rungs: the database's mean time")
                    .isLessThan(first(results, "start").segments().databaseMicros());
            assertThat(first(results, "start").load().connections().opened())
                    .as("without keep-alive, a connection per request (but the few opened before the phase)")
                    .isGreaterThanOrEqualTo(first(results, "start").load().requests().completed() * 9 / 10);
            assertThat(first(results, "keep-alive").load().connections().opened())
                    .as("with keep-alive, connections kept").isLessThan(first(results, "keep-alive").load().requests().completed() / 10);
            long stalled = first(results, "keep-alive").load().latency().p50Micros();
            long noDelay = first(results, "tcp-nodelay").load().latency().p50Micros();
            assertThat((double) stalled).as("Nagle's p50 %d µs against TCP_NODELAY's %d µs", stalled, noDelay)
                    .isGreaterThanOrEqualTo(LadderReport.NAGLE_FACTOR * noDelay);
            first(results, "start").server().kernel().ifPresent(k -> assertThat(k.passiveOpens())
                    .as("the kernel accepted a connection per request without keep-alive")
                    .isGreaterThanOrEqualTo(first(results, "start").server().answered() * 9 / 10));
            first(results, "tcp-nodelay").server().kernel().ifPresent(k -> assertThat(k.passiveOpens())
                    .as("the kernel accepted (almost) none with keep-alive").isLessThan(first(results, "tcp-nodelay").server().answered() / 10));
            first(results, "keep-alive").server().kernel().ifPresent(k -> assertThat(k.delayedAcks())
                    .as("with Nagle on over kept connections, the kernel's delayed-ACK timer fired for about every request")
                    .isGreaterThanOrEqualTo(first(results, "keep-alive").server().answered() / 2));
            // the business code's rungs, each held to the bytes its request's thread allocated in the stage it changed:
            // exact counts, unmoved by the machine's noise (times are reported, not judged)
            assertThat(stageBytes(results, "string-builder", Stage.TAG) * 2).as("the tag's bytes: a builder against +=")
                    .isLessThan(stageBytes(results, "tcp-nodelay", Stage.TAG));
            assertThat(stageBytes(results, "mapstruct", Stage.MAP) * 2).as("the mapping's bytes: MapStruct against Dozer")
                    .isLessThan(stageBytes(results, "string-builder", Stage.MAP));
            assertThat(first(results, "protobuf").business().split().bodyBytes()).as("the body on the wire")
                    .isLessThan(first(results, "mapstruct").business().split().bodyBytes());
            assertThat(stageBytes(results, "sampled-log", Stage.LOG) * 10).as("the log's bytes: 1 in 100, queued, against every answer")
                    .isLessThan(stageBytes(results, "protobuf", Stage.LOG));
            assertThat(first(results, "sampled-log").business().logBytesPerRequest() * 33).as("the log file's bytes per request: at most 3 %")
                    .isLessThan(first(results, "protobuf").business().logBytesPerRequest());
            // protobuf's builders allocate about what Jackson's recycled buffers do: its gain is the body on the wire
            for (String rung : List.of("string-builder", "mapstruct", "sampled-log", "sampled-trace")) {
                int i = results.indexOf(first(results, rung));
                assertThat(results.get(i).business().split().businessBytes()).as("the allocation per request shrinks at %s", rung)
                        .isLessThan(results.get(i - 1).business().split().businessBytes());
            }
            // the flame graph's reading (its allocation samples, hundreds a second): the slow business code's libraries in it,
            // the all-fast rung's (the sampled trace's: before it, every request's whole answer is serialised for its trace)
            // without Dozer and Jackson
            BusinessProfile.Tally slow = first(results, "tcp-nodelay").business().profile().allocation();
            for (String library : List.of("Dozer", "Jackson", "Log4j", "OpenTelemetry")) {
                assertThat(slow.in(library)).as("bytes allocated in %s on the slow business code: %s", library, slow).isPositive();
            }
            BusinessProfile.Tally fast = first(results, "sampled-trace").business().profile().allocation();
            assertThat(fast.in("Dozer")).as("Dozer after MapStruct: %s", fast).isZero();
            assertThat(fast.in("Jackson")).as("Jackson after protobuf, the sampled log and the sampled trace: %s", fast).isZero();
            // the monitoring rung: every request's trace kept, then about one in a hundred (binomial: within five standard
            // deviations of the mean; at least one when ten are expected), its own work on the request's thread and its
            // file cut at least tenfold
            LadderRun.RungResult every = first(results, "sampled-log");
            LadderRun.RungResult sampled = first(results, "sampled-trace");
            assertThat(every.business().monitoring().tracedRequests()).as("every request traced")
                    .isEqualTo(every.business().split().requests());
            double expected = sampled.business().split().requests() / (double) archlab.ladder.monitor.RequestTracer.SAMPLE_ONE_IN;
            assertThat((double) sampled.business().monitoring().tracedRequests()).as("one trace in a hundred kept")
                    .isBetween(Math.max(expected >= 10 ? 1 : 0, expected - 5 * Math.sqrt(expected)), expected + 5 * Math.sqrt(expected) + 1);
            assertThat(stageBytes(results, "sampled-trace", Stage.TRACE) * 10).as("the tracing's bytes on the request's thread")
                    .isLessThan(stageBytes(results, "sampled-log", Stage.TRACE));
            assertThat(sampled.business().traceBytesPerRequest() * 10).as("the trace file's bytes per request")
                    .isLessThan(every.business().traceBytesPerRequest());
            assertThat(first(results, "tcp-nodelay").business().flameGraphs()).as("the slow rung's flame graphs")
                    .allSatisfy(f -> assertThat(f).exists()).isNotEmpty();
            // the collectors: every setting ran under the collector and the heap it asked for, with its GC log (a small heap
            // may not keep up: that is shown, not judged); the small heap collected more often than the large one
            for (CollectorRuns.Result c : collectors) {
                long asked = (long) c.setup().heapMiB() << 20; // Parallel reports -Xmx less a survivor space
                assertThat(c.gc().jvm().heapMaxBytes()).as("%s's heap", c.setup().name()).isBetween(asked * 9 / 10, asked);
                assertThat(c.gc().jvm().collectors()).as("%s's collectors", c.setup().name())
                        .contains(switch (c.setup().collector()) { case G1 -> "G1"; case ZGC -> "ZGC Minor"; case PARALLEL -> "PS "; });
                assertThat(ReportWriter.reportsDir().resolve(c.gcLog())).as("%s's -Xlog:gc* file", c.setup().name())
                        .isNotEmptyFile();
            }
            for (CollectorRuns.Collector collector : CollectorRuns.Collector.values()) {
                List<CollectorRuns.Result> byHeap = collectors.stream().filter(c -> c.setup().collector() == collector).toList();
                CollectorRuns.Result small = byHeap.get(0);
                CollectorRuns.Result large = byHeap.get(byHeap.size() - 1);
                assertThat(small.gc().collections()).as("%s: collections at %d MiB against %d MiB", collector,
                        small.setup().heapMiB(), large.setup().heapMiB()).isGreaterThan(large.gc().collections());
            }
            LadderRun.RungResult off = aside.orElseThrow();
            assertThat(off.load().connections().opened()).as("the aside: a connection per request")
                    .isGreaterThanOrEqualTo(off.load().requests().completed() * 9 / 10);
        }
    }

    private static double stageBytes(List<LadderRun.RungResult> results, String rung, Stage stage) {
        return first(results, rung).business().split().stage(stage).bytes();
    }

    private static LadderRun.RungResult first(List<LadderRun.RungResult> results, String name) {
        return results.stream().filter(r -> r.rung().name().equals(name)).findFirst().orElseThrow();
    }
}

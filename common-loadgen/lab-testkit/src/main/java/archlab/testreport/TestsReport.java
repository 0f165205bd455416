package archlab.testreport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;

/**
 * One module's {@code tests.json}: every test method of the module ({@link ModuleTests}) with what this JVM's test
 * run made of it. Written twice: when the first test plan starts, every test {@value #NOT_RUN} (so that a test of
 * this same run, the book's {@code BookInSyncTest}, can already read it), and again with the outcomes each time a
 * plan finishes. Each write replaces the file whole (a temporary file moved over it), so a reader never sees half.
 *
 * <p>The file:
 * <pre>{@code {
 *   "module" : "ch12-1-baseline",
 *   "state" : "finished",
 *   "problems" : [ ],
 *   "tests" : [ { "class" : "OrderServiceTest", "method" : "payMovesMoney", "displayName" : "…",
 *                 "needs" : [ "-Dbaseline" ], "depth" : 0, "order" : 3, "outcome" : "successful" }, … ]
 * }}</pre>
 * {@code state} is {@code "started"} or {@code "finished"}; {@code outcome} one of {@value #SUCCESSFUL},
 * {@value #FAILED}, {@value #ABORTED}, {@value #SKIPPED}, {@value #NOT_RUN}. A method's outcome is the worst of
 * its own result and its invocations' (a parameterized test with one failing case failed); a method below a
 * skipped container was skipped; one with no result below a container that failed or aborted takes the
 * container's; one this run did not select, {@value #NOT_RUN}.
 *
 * <p>Thread-safety: safe; results may be recorded from any thread, discovery and writes are serialised.
 */
final class TestsReport {

    static final String SUCCESSFUL = "successful";
    static final String FAILED = "failed";
    static final String ABORTED = "aborted";
    static final String SKIPPED = "skipped";
    static final String NOT_RUN = "not run";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String module;
    private final Path testClasses;
    private final Path file;
    private final Map<String, TestExecutionResult.Status> results = new ConcurrentHashMap<>();
    private final Set<String> skipped = ConcurrentHashMap.newKeySet();
    private ModuleTests.Discovery discovery; // guarded by this

    /**
     * @param module      the module's name, written as {@code module}
     * @param testClasses the module's {@code target/test-classes}, discovered whole
     * @param file        where the report goes ({@code <reports dir>/tests.json})
     */
    TestsReport(String module, Path testClasses, Path file) {
        this.module = module;
        this.testClasses = testClasses;
        this.file = file;
    }

    /** Discovers the module's tests, the first time only, and writes the file with no outcome yet. */
    synchronized void started() {
        if (discovery == null) {
            discovery = ModuleTests.discover(testClasses);
            write("started");
        }
    }

    void skipped(String uniqueId) {
        skipped.add(uniqueId);
    }

    void finished(String uniqueId, TestExecutionResult.Status status) {
        results.merge(uniqueId, status, TestsReport::worse);
    }

    /** Writes the file with the outcomes recorded so far (after {@link #started}). */
    synchronized void planFinished() {
        if (discovery != null) {
            write("finished");
        }
    }

    private void write(String state) {
        ObjectNode root = JSON.createObjectNode().put("module", module).put("state", state);
        ArrayNode problems = root.putArray("problems");
        discovery.problems().forEach(problems::add);
        ArrayNode tests = root.putArray("tests");
        for (ModuleTests.Row r : discovery.rows()) {
            ObjectNode t = tests.addObject().put("class", r.testClass()).put("method", r.method())
                    .put("displayName", r.displayName());
            ArrayNode needs = t.putArray("needs");
            r.needs().forEach(needs::add);
            t.put("depth", r.depth()).put("order", r.order()).put("outcome", outcome(r));
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private String outcome(ModuleTests.Row r) {
        if (skipped.contains(r.uniqueId()) || r.containers().stream().anyMatch(skipped::contains)) {
            return SKIPPED;
        }
        List<TestExecutionResult.Status> own = new ArrayList<>();
        results.forEach((id, status) -> {
            if (id.equals(r.uniqueId()) || id.startsWith(r.uniqueId() + "/")) {
                own.add(status);
            }
        });
        if (own.isEmpty()) {
            for (String c : r.containers()) { // innermost first: a failed @BeforeAll fails its tests unstarted
                TestExecutionResult.Status s = results.get(c);
                if (s != null && s != TestExecutionResult.Status.SUCCESSFUL) {
                    return name(s);
                }
            }
            return NOT_RUN;
        }
        return name(own.stream().reduce(TestsReport::worse).orElseThrow());
    }

    private static TestExecutionResult.Status worse(TestExecutionResult.Status a, TestExecutionResult.Status b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(TestExecutionResult.Status s) {
        return switch (s) {
            case SUCCESSFUL -> 0;
            case ABORTED -> 1;
            case FAILED -> 2;
        };
    }

    private static String name(TestExecutionResult.Status s) {
        return switch (s) {
            case SUCCESSFUL -> SUCCESSFUL;
            case ABORTED -> ABORTED;
            case FAILED -> FAILED;
        };
    }
}

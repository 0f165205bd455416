package archlab.house;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.RepoRoot;
import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The rules of the house that must not regress after landing, checked on the whole lab from the grader's module (the
 * last harness module in the reactor, so every other module's classes are compiled by now). The trap: a rule kept in
 * a README breaks in the next round (a main file grew to 483, then 419 lines; a checkpoint imported 30 harness types
 * while a hand-kept list allowed 27). A failure names the file, the dependency or the arrow.
 */
class BuildRulesTest {

    /** Past this, a main source file is doing two jobs. */
    static final int MAX_MAIN_FILE_LINES = 400;

    private static final Path ROOT = RepoRoot.path();

    private static final List<String> CHECKPOINTS =
            List.of("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios");

    private static JavaClasses harness;

    /** Every harness module's main classes (common-loadgen/lab-{@literal *}/target/classes), imported once. */
    private static synchronized JavaClasses harness() throws IOException {
        if (harness != null) {
            return harness;
        }
        List<Path> folders;
        try (Stream<Path> modules = Files.list(ROOT.resolve("common-loadgen"))) {
            folders = modules.map(m -> m.resolve("target/classes")).filter(Files::isDirectory).sorted().toList();
        }
        assertThat(folders).as("compiled harness modules under common-loadgen/").hasSizeGreaterThan(5);
        // the rules judge names: the classes the harness uses are not imported from the class path (seconds)
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        harness = new ClassFileImporter().importPaths(folders);
        return harness;
    }

    @Test
    @DisplayName("no main source file of the lab is over 400 lines")
    void noMainFileOverTheLimit() throws IOException {
        Map<String, Long> over = new TreeMap<>();
        int seen = 0;
        for (Path module : RepoRoot.moduleDirs()) {
            Path main = module.resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(main)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    seen++;
                    long lines;
                    try (Stream<String> l = Files.lines(f)) {
                        lines = l.count();
                    }
                    if (lines > MAX_MAIN_FILE_LINES) {
                        over.put(ROOT.relativize(f).toString(), lines);
                    }
                }
            }
        }
        assertThat(seen).as("main source files found").isGreaterThan(200);
        assertThat(over).as("main files over %d lines (give each one job)", MAX_MAIN_FILE_LINES).isEmpty();
    }

    @Test
    @DisplayName("a checkpoint's main code compiles against lab-api only: its POM names no other harness module outside the test scope")
    void checkpointsCompileAgainstTheApiOnly() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String checkpoint : CHECKPOINTS) {
            Map<String, String> harness = harnessDependencies(ROOT.resolve(checkpoint).resolve("pom.xml"));
            assertThat(harness).as("%s's harness dependencies", checkpoint).containsEntry("lab-api", "compile");
            harness.forEach((artifact, scope) -> {
                if (!artifact.equals("lab-api") && !scope.equals("test")) {
                    wrong.add(checkpoint + " -> " + artifact + " (" + scope + ")");
                }
            });
        }
        assertThat(harnessDependencies(ROOT.resolve("common-loadgen/lab-api/pom.xml")))
                .as("lab-api's own harness dependencies (it must stand alone)").isEmpty();
        assertThat(wrong).as("harness modules a checkpoint's main code could compile against").isEmpty();
    }

    @Test
    @DisplayName("the harness's packages have no cycle between them, across all its modules")
    void harnessFreeOfCycles() throws IOException {
        HouseRules.harnessFreeOfCycles().check(harness());
    }

    @Test
    @DisplayName("no class of the harness depends on a checkpoint or the book, and only the grader uses the grader")
    void harnessKnowsNoCheckpoint() throws IOException {
        HouseRules.harnessKnowsNoCheckpoint().check(harness());
    }

    @Test
    @DisplayName("no code line of the harness names a checkpoint module (they come in as archlab.checkpoints)")
    void harnessNamesNoCheckpoint() throws IOException {
        Pattern named = Pattern.compile("ch12-[0-9]-[a-z-]+");
        List<String> found = new ArrayList<>();
        for (Path module : RepoRoot.moduleDirs()) {
            if (!module.getParent().getFileName().toString().equals("common-loadgen")) {
                continue;
            }
            try (Stream<Path> files = Files.walk(module.resolve("src/main"))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        String code = lines.get(i).strip();
                        if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                            continue; // a comment may give an example
                        }
                        Matcher m = named.matcher(code.replaceAll("//.*$", ""));
                        if (m.find()) {
                            found.add(ROOT.relativize(f) + ":" + (i + 1) + " " + m.group());
                        }
                    }
                }
            }
        }
        assertThat(found).as("harness code naming a checkpoint").isEmpty();
    }

    @Test
    @DisplayName("in the harness only archlab.db touches the database (JDBC, the pool, the driver, the migrations)")
    void onlyArchlabDbTouchesTheDatabase() throws IOException {
        HouseRules.onlyArchlabDbTouchesTheDatabase().check(harness());
    }

    @Test
    @DisplayName("the service side a solution may use is exactly lab-api's classes, read from the module itself")
    void serviceSideIsTheApiModule() throws IOException {
        List<String> sources;
        Path api = ROOT.resolve("common-loadgen/lab-api/src/main/java");
        try (Stream<Path> files = Files.walk(api)) {
            sources = files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java"))
                    .map(p -> api.relativize(p).toString().replace(".java", "").replace('/', '.')).sorted().toList();
        }
        assertThat(HouseRules.SERVICE_SIDE_CLASSES).containsExactlyInAnyOrderElementsOf(sources);
    }

    /** @return artifactId → scope ("compile" when none is given) of each dev.archlab dependency the POM declares */
    private static Map<String, String> harnessDependencies(Path pom) throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        Map<String, String> out = new TreeMap<>();
        NodeList deps = project.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            if (d.getParentNode().getParentNode() != project) {
                continue; // only the POM's own <dependencies>, not a plugin's or dependencyManagement's
            }
            if (text(d, "groupId").equals("dev.archlab")) {
                String scope = text(d, "scope");
                out.put(text(d, "artifactId"), scope.isEmpty() ? "compile" : scope);
            }
        }
        return out;
    }

    private static String text(Element e, String tag) {
        NodeList n = e.getElementsByTagName(tag);
        return n.getLength() == 0 ? "" : n.item(0).getTextContent().strip();
    }
}

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
 * last harness module in the reactor, so every other module's classes are compiled by now). The trap: a rule kept only
 * in a README broke in the next round, twice (a main file past the limit; a checkpoint importing harness types a
 * hand-kept list did not allow). A failure names the file, the dependency or the arrow.
 */
class BuildRulesTest {

    /** Past this, a main source file is doing two jobs. */
    static final int MAX_MAIN_FILE_LINES = 400;

    private static final Path ROOT = RepoRoot.path();

    /** The checkpoints, as the root POM lists them for every test JVM ({@code archlab.checkpoints}). */
    private static final List<String> CHECKPOINTS = Stream.of(System.getProperty("archlab.checkpoints", "").split(","))
            .map(String::strip).filter(c -> !c.isEmpty()).toList();

    private static JavaClasses harness;

    /** Every harness module's main classes (common-loadgen/lab-{@literal *}/target/classes), imported once. */
    private static synchronized JavaClasses harness() throws IOException {
        if (harness != null) {
            return harness;
        }
        List<String> modules = modulesOf(ROOT.resolve("common-loadgen/pom.xml"));
        assertThat(modules).as("the modules common-loadgen/pom.xml lists").hasSizeGreaterThan(5);
        List<Path> folders = modules.stream().map(m -> ROOT.resolve("common-loadgen").resolve(m).resolve("target/classes")).toList();
        assertThat(folders).as("every harness module compiled before the grader's tests").allMatch(Files::isDirectory);
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
        assertThat(CHECKPOINTS).as("the checkpoints of the build (archlab.checkpoints)").hasSize(3);
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

    /** @return the {@code <module>} entries of {@code pom}, in order */
    private static List<String> modulesOf(Path pom) {
        try {
            NodeList modules = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
                    .getDocumentElement().getElementsByTagName("module");
            List<String> names = new ArrayList<>();
            for (int i = 0; i < modules.getLength(); i++) {
                names.add(modules.item(i).getTextContent().strip());
            }
            return names;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the modules of " + pom + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return artifactId → scope ("compile" when none is given) of each dev.archlab dependency the POM declares, its
     *         profiles' included (a profile's compile dependency would reach the main code too)
     */
    private static Map<String, String> harnessDependencies(Path pom) throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        Map<String, String> out = new TreeMap<>();
        NodeList deps = project.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            org.w3c.dom.Node owner = d.getParentNode().getParentNode();
            boolean ownOrProfile = owner == project || owner.getNodeName().equals("profile");
            if (!ownOrProfile) {
                continue; // the POM's and its profiles' <dependencies>, not a plugin's or dependencyManagement's
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

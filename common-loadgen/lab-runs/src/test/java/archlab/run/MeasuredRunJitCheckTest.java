package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class MeasuredRunJitCheckTest {

    private static final Path ROOT = RepoRoot.path();

    /** JUnit's condition on a system property, as a test class or method is annotated with it: group 1 is the flag. */
    private static final Pattern ENABLED_BY = Pattern.compile("@EnabledIfSystemProperty\\(\\s*named\\s*=\\s*\"([^\"]+)\"");

    private static Properties flags(String... names) {
        Properties p = new Properties();
        for (String n : names) {
            p.setProperty(n, "true");
        }
        return p;
    }

    @Test
    @DisplayName("a measured run's flag in a test JVM that compiles with C1 only stops it before its first test, naming the flag and the POM property its profile must clear")
    void measuredRunUnderC1IsRefused() {
        assertThat(MeasuredRunJitCheck.refusal(flags("baseline"), 1)).hasValueSatisfying(r -> assertThat(r)
                .contains("-Dbaseline").contains("TieredStopAtLevel=1").contains("archlab.test.jit"));
        assertThat(MeasuredRunJitCheck.refusal(flags("book", "grade.wrong"), 3)).hasValueSatisfying(r -> assertThat(r)
                .contains("-Dgrade.wrong"));
    }

    @Test
    @DisplayName("the fast tests under C1, a measured run with C2, and the book's refresh under C1 (it measures nothing) all pass the check")
    void fastTestsAndFullJitRunsPass() {
        assertThat(MeasuredRunJitCheck.refusal(flags(), 1)).isEmpty();
        assertThat(MeasuredRunJitCheck.refusal(flags("lab.rate"), 1)).as("an override alone runs nothing").isEmpty();
        assertThat(MeasuredRunJitCheck.refusal(flags("baseline", "slow"), MeasuredRunJitCheck.C2_TIER)).isEmpty();
        assertThat(MeasuredRunJitCheck.refusal(flags("book"), 1)).isEmpty();
    }

    @Test
    @DisplayName("the root POM's test JVMs stop at C1 and skip verifying library bytecode, and every measured run's flag activates a profile that gives them the full JIT back, each harness module in a test JVM of its own")
    void everyMeasuredRunFlagHasAFullJitProfile() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
        XPath xpath = XPathFactory.newInstance().newXPath();
        assertThat(xpath.evaluate("/project/properties/archlab.test.jit", pom)).isEqualTo(
                "-XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote");
        assertThat(xpath.evaluate("//plugin[artifactId='maven-surefire-plugin']/configuration/argLine", pom))
                .contains("${archlab.test.jit}");

        Map<String, String> jitByFlag = new HashMap<>(); // activating property → the profile's archlab.test.jit
        NodeList profiles = (NodeList) xpath.evaluate("/project/profiles/profile[activation/property/name]", pom,
                XPathConstants.NODESET);
        for (int i = 0; i < profiles.getLength(); i++) {
            Element profile = (Element) profiles.item(i);
            boolean setsJit = (Boolean) xpath.evaluate("boolean(properties/archlab.test.jit)", profile, XPathConstants.BOOLEAN);
            jitByFlag.put(xpath.evaluate("activation/property/name", profile),
                    setsJit ? xpath.evaluate("properties/archlab.test.jit", profile) : null);
        }
        for (String flag : MeasuredRunJitCheck.MEASURED_RUN_FLAGS) {
            assertThat(jitByFlag).as("the profile activated by -D%s", flag).containsEntry(flag, "");
            // and the harness's lower modules fork a test JVM of their own again: nothing measured in Maven's JVM
            assertThat(xpath.evaluate("/project/profiles/profile[activation/property/name='" + flag
                    + "']/properties/archlab.harness.forkCount", pom)).as("-D%s's harness fork count", flag).isEqualTo("1");
        }
        assertThat(xpath.evaluate("/project/properties/archlab.harness.forkCount", pom))
                .as("the fast tests of the harness's lower modules run in Maven's JVM").isEqualTo("0");
        for (String flag : MeasuredRunJitCheck.UNMEASURED_RUN_FLAGS) {
            assertThat(jitByFlag.get(flag)).as("-D%s measures nothing: no profile changes its JIT", flag).isNull();
        }
    }

    @Test
    @DisplayName("every run flag a test of the lab is enabled by is known to the check, as measured or as measuring nothing")
    void everyRunFlagIsClassified() throws IOException {
        Set<String> enabledBy = new TreeSet<>();
        // tests, and the harness's test kit in main code (MultiSecondCheck carries -Dslow)
        List<Path> testSources = RepoRoot.moduleDirs().stream()
                .flatMap(m -> Stream.of(m.resolve("src/test/java"), m.resolve("src/main/java")))
                .filter(Files::isDirectory).toList();
        for (Path sources : testSources) {
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = ENABLED_BY.matcher(Files.readString(f));
                    while (m.find()) {
                        enabledBy.add(m.group(1));
                    }
                }
            }
        }
        assertThat(enabledBy).as("flags found under %s", testSources).contains("baseline", "slow");
        assertThat(enabledBy).allSatisfy(flag -> assertThat(Stream.concat(MeasuredRunJitCheck.MEASURED_RUN_FLAGS.stream(),
                MeasuredRunJitCheck.UNMEASURED_RUN_FLAGS.stream())).as("-D%s, measured or not", flag).contains(flag));
    }
}

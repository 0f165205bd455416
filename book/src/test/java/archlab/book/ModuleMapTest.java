package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The README's house table ({@code ## The house}) is the build's module list: one row per module that the root
 * {@code pom.xml} declares, and per module that a declared module's own {@code pom.xml} declares in its
 * {@code <modules>} (an aggregator such as {@code common-loadgen} once it is split), no row for anything else. The
 * module is the first {@code `code`} of a row's first cell. A row whose first cell says {@code (planned)} names a
 * module that is on its way: it is allowed only while no POM declares it and while no POM below the root declares
 * modules at all — the split that brings the planned modules must also settle their rows.
 */
class ModuleMapTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Pattern NAME = Pattern.compile("`([^`]+)`");

    /** One row of the README's house table: the module's name, whether it is marked planned, its three cells. */
    record Row(int line, String name, boolean planned, List<String> cells) {
    }

    @Test
    @DisplayName("the README's house table lists exactly the modules the POMs declare (root and any aggregator below it), one row each")
    void readmeTableIsTheBuildsModules() {
        Map<String, String> declared = declaredModules(ROOT);
        assertThat(declared).as("modules the root pom.xml declares").containsKeys("book", "common-loadgen");
        List<Row> rows = houseTable(read(ROOT.resolve("README.md")));
        List<String> problems = problems(declared, rows);
        assertThat(problems).as("README.md's house table against the POMs' <modules> (declared: %s)", declared).isEmpty();
    }

    @Test
    @DisplayName("the check itself: a missing, an extra, a duplicated row and a planned row that a POM now declares are each named")
    void namesWhatIsMissingOrExtra() {
        Map<String, String> declared = new LinkedHashMap<>();
        declared.put("common-loadgen", "pom.xml");
        declared.put("lab-api", "common-loadgen/pom.xml");
        declared.put("book", "pom.xml");
        List<Row> rows = houseTable("""
                ## The house

                | module | what it holds | who may depend on it |
                | --- | --- | --- |
                | `common-loadgen` | the harness | everyone |
                | `lab-api` (planned) | the service side | everyone |
                | `lab-report` (planned) | a run's report | tests |
                | `ch12-9-gone` | a checkpoint no POM has | nothing |
                | `ch12-9-gone` | the same again | nothing |
                """);
        assertThat(rows).extracting(Row::name).containsExactly("common-loadgen", "lab-api", "lab-report", "ch12-9-gone",
                "ch12-9-gone");
        assertThat(problems(declared, rows)).satisfiesExactlyInAnyOrder(
                p -> assertThat(p).contains("missing").contains("`book`").contains("pom.xml"),
                p -> assertThat(p).contains("`lab-api`").contains("common-loadgen/pom.xml declares it").contains("(planned)"),
                p -> assertThat(p).contains("`lab-report`").contains("common-loadgen/pom.xml declares modules now"),
                p -> assertThat(p).contains("extra").contains("`ch12-9-gone`"),
                p -> assertThat(p).contains("twice").contains("`ch12-9-gone`"));
        // before the split: only the root declares modules, so a planned row no POM declares is fine
        Map<String, String> before = new LinkedHashMap<>(Map.of("common-loadgen", "pom.xml", "book", "pom.xml"));
        assertThat(problems(before, houseTable("""
                ## The house

                | module | what it holds | who may depend on it |
                | --- | --- | --- |
                | `common-loadgen` | the harness | everyone |
                | `lab-api` (planned) | the service side | everyone |
                | `book` | the chapters | nothing |
                """))).isEmpty();
    }

    /** @return every problem of {@code rows} against the modules the POMs declare (module name → the POM declaring it) */
    static List<String> problems(Map<String, String> declared, List<Row> rows) {
        List<String> problems = new ArrayList<>();
        TreeSet<String> aggregators = new TreeSet<>();
        declared.values().stream().filter(pom -> !pom.equals("pom.xml")).forEach(aggregators::add);
        Map<String, Row> byName = new LinkedHashMap<>();
        for (Row row : rows) {
            if (byName.putIfAbsent(row.name(), row) != null) {
                problems.add("README.md:" + row.line() + ": `" + row.name() + "` has a row twice");
            }
            if (row.cells().size() != 3 || row.cells().stream().anyMatch(String::isBlank)) {
                problems.add("README.md:" + row.line() + ": `" + row.name()
                        + "`'s row needs three cells: module | what it holds | who may depend on it");
            }
        }
        for (Map.Entry<String, String> module : declared.entrySet()) {
            Row row = byName.get(module.getKey());
            if (row == null) {
                problems.add("missing: `" + module.getKey() + "` is declared in " + module.getValue()
                        + " but README.md's house table has no row for it");
            } else if (row.planned()) {
                problems.add("README.md:" + row.line() + ": " + module.getValue() + " declares it now: remove (planned) from `"
                        + module.getKey() + "`'s row");
            }
        }
        for (Row row : byName.values()) {
            if (declared.containsKey(row.name())) {
                continue;
            }
            if (!row.planned()) {
                problems.add("extra: README.md:" + row.line() + ": `" + row.name()
                        + "` has a row, but no POM declares it (remove the row, or mark it (planned) until it is built)");
            } else if (!aggregators.isEmpty()) {
                problems.add("README.md:" + row.line() + ": `" + row.name() + "` is still marked (planned), but "
                        + String.join(", ", aggregators) + " declares modules now: rename the row to the module it became, "
                        + "or remove it");
            }
        }
        return problems;
    }

    /**
     * @return every module the root POM declares in its {@code <modules>}, and, recursively, every module a declared
     *     module's own POM declares: its directory's name → the POM that declares it (relative to {@code root})
     */
    static Map<String, String> declaredModules(Path root) {
        Map<String, String> modules = new LinkedHashMap<>();
        collect(root, root, modules);
        return modules;
    }

    private static void collect(Path root, Path dir, Map<String, String> into) {
        Path pom = dir.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            return;
        }
        String pomName = root.relativize(pom).toString().replace('\\', '/');
        for (String module : modulesOf(pom)) {
            Path child = dir.resolve(module).normalize();
            into.put(child.getFileName().toString(), pomName);
            collect(root, child, into);
        }
    }

    /** @return the {@code <module>} entries of the POM's own {@code <project><modules>} (a profile's are not the build's) */
    private static List<String> modulesOf(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = factory.newDocumentBuilder().parse(pom.toFile());
            List<String> modules = new ArrayList<>();
            for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals("modules")) {
                    NodeList entries = e.getElementsByTagName("module");
                    for (int i = 0; i < entries.getLength(); i++) {
                        modules.add(entries.item(i).getTextContent().strip());
                    }
                }
            }
            return modules;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the modules of " + pom + ": " + e.getMessage(), e);
        }
    }

    /** @return the rows of the first table under the heading {@code ## The house}, header and separator left out */
    static List<Row> houseTable(String readme) {
        List<String> lines = readme.lines().toList();
        int heading = lines.indexOf("## The house");
        assertThat(heading).as("README.md has a section \"## The house\"").isNotNegative();
        List<Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (int i = heading + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                if (inTable) {
                    break;
                }
                continue;
            }
            if (!inTable) {
                assertThat(line).as("README.md:" + (i + 1) + ": the house table's header")
                        .startsWith("| module | what it holds | who may depend on it |");
                inTable = true;
                i++; // the separator
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length()).split("\\|", -1)) {
                cells.add(cell.strip());
            }
            Matcher name = NAME.matcher(cells.getFirst());
            assertThat(name.find()).as("README.md:" + (i + 1) + ": a module's name in `code` in the first cell: " + line)
                    .isTrue();
            rows.add(new Row(i + 1, name.group(1), cells.getFirst().contains("(planned)"), cells));
        }
        assertThat(rows).as("rows of README.md's house table").isNotEmpty();
        return rows;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

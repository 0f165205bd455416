package archlab.claims;

import archlab.report.ReportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The judgements of one claims run, for people (Markdown), for tools (JSON) and for classroom autograders (JUnit
 * XML): points earned of points possible, and for every claim its verdict, what was measured, what it needs and
 * which section explains it.
 *
 * @param module     the module whose code was judged
 * @param title      e.g. {@code "grade 12.2"}
 * @param judgements in claim order
 * @param refusals   why the grader refused the solution before judging it ({@link StudentCodeCheck}); empty if it did
 *                   not. A refused solution earns no points.
 * @param seed       the run's seed, from which every claim's inputs were drawn ({@link ClaimInputs}): regrading with it
 *                   ({@code -Dgrade.seed}) feeds the solution the same inputs
 * @param isolation  where the solution ran (its own processes, under which user), one line; empty: not said
 */
public record Scorecard(String module, String title, List<Judgement> judgements, List<String> refusals, long seed, String isolation) {

    /** The {@code kind} of a scorecard's JSON: how the book module tells it from a run report. */
    public static final String KIND = "claims-scorecard";

    /** A scorecard that says nothing of where the solution ran. */
    public Scorecard(String module, String title, List<Judgement> judgements, List<String> refusals, long seed) {
        this(module, title, judgements, refusals, seed, "");
    }

    public Scorecard {
        isolation = isolation == null ? "" : isolation;
        judgements = List.copyOf(judgements);
        refusals = List.copyOf(refusals);
    }

    public int pointsEarned() {
        if (!refusals.isEmpty()) {
            return 0;
        }
        return judgements.stream().filter(Judgement::passed).mapToInt(j -> j.claim().points()).sum();
    }

    public int pointsPossible() {
        return judgements.stream().mapToInt(j -> j.claim().points()).sum();
    }

    /** @return whether every claim passed (a claim not judged has not) */
    public boolean allPassed() {
        return refusals.isEmpty() && judgements.stream().allMatch(Judgement::passed);
    }

    /** @return e.g. {@code "points 11/30 (ch12-1-baseline, grade 12.2): 4 passed, 7 failed, 0 not judged"} */
    public String summary() {
        long failed = count(ClaimVerdict.Outcome.FAILED);
        long notJudged = count(ClaimVerdict.Outcome.NOT_JUDGED);
        if (!refusals.isEmpty()) {
            return String.format(Locale.ROOT, "points 0/%d (%s, %s): refused, %d reason(s): %s", pointsPossible(), module,
                    title, refusals.size(), refusals.get(0) + (refusals.size() > 1 ? " …" : ""));
        }
        return String.format(Locale.ROOT, "points %d/%d (%s, %s): %d passed, %d failed, %d not judged", pointsEarned(),
                pointsPossible(), module, title, count(ClaimVerdict.Outcome.PASSED), failed, notJudged);
    }

    private long count(ClaimVerdict.Outcome o) {
        return judgements.stream().filter(j -> j.verdict().outcome() == o).count();
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(module).append(": ").append(title).append("\n\n").append(summary()).append("\n\n")
                .append(seedLine()).append("\n\n");
        if (!isolation.isEmpty()) {
            sb.append("isolation: ").append(isolation).append("\n\n");
        }
        if (!refusals.isEmpty()) {
            sb.append("## Refused before judging (grade 0)\n\n");
            refusals.forEach(r -> sb.append("- ").append(cell(r)).append('\n'));
            sb.append('\n');
        }
        sb.append("| claim | suite | points | verdict | measured | needs | chapter |\n|---|---|---:|---|---|---|---|\n");
        for (Judgement j : judgements) {
            Claim c = j.claim();
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d/%d | %s | %s | %s | %s |%n", c.id(), c.suite().id(),
                    j.passed() ? c.points() : 0, c.points(), j.verdict().outcome(), cell(j.verdict().measured()), cell(c.needs()), c.section()));
        }
        return sb.toString();
    }

    /** @return how to regrade with this run's inputs */
    public String seedLine() {
        return "seed " + seed + " (regrade with the same inputs: -Dgrade.seed=" + seed
                + "; book/grading/grade-student.sh … --seed " + seed + ")";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    public Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", KIND);
        out.put("module", module);
        out.put("title", title);
        out.put("session", System.getProperty("archlab.session", "adhoc"));
        out.put("at", java.time.Instant.now().toString());
        out.put("seed", seed);
        out.put("isolation", isolation);
        out.put("pointsEarned", pointsEarned());
        out.put("pointsPossible", pointsPossible());
        out.put("allPassed", allPassed());
        out.put("refusals", refusals);
        out.put("claims", judgements.stream().map(j -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", j.claim().id());
            m.put("suite", j.claim().suite().id());
            m.put("section", j.claim().section());
            m.put("points", j.claim().points());
            m.put("load", j.claim().load());
            m.put("statement", j.claim().statement());
            m.put("needs", j.claim().needs());
            m.put("outcome", j.verdict().outcome().name());
            m.put("mustPassHere", Suite.isCheckpoint(module) ? j.claim().suite().passesOn(module) : null);
            m.put("measured", j.verdict().measured());
            m.put("attempts", j.attempts());
            m.put("seconds", j.nanos() / 1e9);
            return m;
        }).toList());
        return out;
    }

    /**
     * @return a JUnit XML test suite, one test case per claim: what classroom autograders read. A claim not judged is
     *         an error (to regrade), never skipped
     */
    public String junitXml() {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\">%n",
                xml(module + " " + title), judgements.size(), count(ClaimVerdict.Outcome.FAILED), count(ClaimVerdict.Outcome.NOT_JUDGED),
                judgements.stream().mapToLong(Judgement::nanos).sum() / 1e9));
        sb.append("  <properties><property name=\"seed\" value=\"").append(seed).append("\"/></properties>\n");
        for (Judgement j : judgements) {
            sb.append(String.format(Locale.ROOT, "  <testcase classname=\"%s\" name=\"%s (%d points)\" time=\"%.3f\">",
                    xml(j.claim().suite().id()), xml(j.claim().id() + ": " + j.claim().statement()), j.claim().points(), j.nanos() / 1e9));
            switch (j.verdict().outcome()) {
                case FAILED -> sb.append("<failure message=\"").append(xml(j.verdict().measured())).append("\">")
                        .append(xml(j.explain())).append("</failure>");
                // never skipped: a claim the grader could not judge is a grade not given, to be graded again
                case NOT_JUDGED -> sb.append("<error type=\"not-judged\" message=\"regrade: ").append(xml(j.verdict().measured()))
                        .append("\">").append(xml(j.explain())).append("</error>");
                case PASSED -> sb.append("<system-out>").append(xml(j.verdict().measured())).append("</system-out>");
            }
            sb.append("</testcase>\n");
        }
        return sb.append("</testsuite>\n").toString();
    }

    /** Escapes {@code s} for an XML attribute or text; characters XML 1.0 cannot carry (a NUL a solution threw) become U+FFFD. */
    static String xml(String s) {
        StringBuilder legal = new StringBuilder(s.length());
        s.codePoints().forEach(c -> legal.appendCodePoint(c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF) ? c : 0xFFFD));
        return legal.toString().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Writes {@code <name>.md}, {@code .json} and {@code .xml} to {@code dir}; returns the Markdown file. */
    public Path write(Path dir, String name) {
        Path md = ReportWriter.writeTable(dir, name, markdown(), json(), "the scorecard");
        try {
            Files.writeString(dir.resolve(name + ".xml"), junitXml(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scorecard to " + dir, e);
        }
        return md;
    }
}

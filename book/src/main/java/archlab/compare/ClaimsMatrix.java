package archlab.compare;

import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The claims × checkpoints matrix of one Maven session ({@code mvn test -Dclaims}): every chapter's claims judged
 * against every checkpoint, read from the scorecards ({@code claims-<module>.json}) the checkpoints saved, and checked
 * for the lesson's shape. The trap it closes: a lesson claim that passes everywhere proves nothing — a claim earns
 * its place by failing on the checkpoint before the lesson, so the matrix fails the build when any cell has the wrong
 * outcome: the contract must pass everywhere, 12.1's evidence on ch12-1 only, 12.2's lesson from ch12-2 on, 12.3's
 * lesson on ch12-3 and not on ch12-2. The expected outcome of each cell comes from the scorecard itself
 * ({@code mustPassHere}, written from the suites' definition).
 *
 * @param columns  the checkpoints, in chapter order
 * @param rows     one per claim, in chapter order
 */
public record ClaimsMatrix(List<String> columns, List<Row> rows) {

    /** The scorecard JSON's {@code kind}. */
    public static final String SCORECARD_KIND = "claims-scorecard";
    public static final String FILE_NAME = "claims";

    /**
     * One claim across the checkpoints.
     *
     * @param id       the claim's id
     * @param suite    its suite
     * @param points   its points
     * @param statement the claim in one line
     * @param cells    per column: the outcome, what it measured, and what the shape wants there
     */
    public record Row(String id, String suite, int points, String statement, List<Cell> cells) {
    }

    /**
     * @param outcome      PASSED, FAILED, NOT_JUDGED, or "–" when the checkpoint did not judge it
     * @param measured     the numbers it judged
     * @param mustPass     true: must pass here; false: must fail here; null: either
     */
    public record Cell(String outcome, String measured, Boolean mustPass) {
        /** @return whether this cell has the lesson's shape (a cell with no expectation always has) */
        public boolean inShape() {
            return mustPass == null || outcome.equals(mustPass ? "PASSED" : "FAILED");
        }
    }

    public ClaimsMatrix {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** @return the matrix of the scorecards of {@code session} under {@code root}'s modules, columns in module order */
    public static ClaimsMatrix collect(Path root, String session) {
        List<String> columns = new ArrayList<>();
        Map<String, Map<String, JsonNode>> byClaim = new LinkedHashMap<>();
        Map<String, JsonNode> claimInfo = new LinkedHashMap<>();
        for (Path f : SavedReports.jsonFiles(root)) {
            JsonNode card = SavedReports.readOrMissing(f);
            if (!SCORECARD_KIND.equals(card.path("kind").asText()) || !session.equals(card.path("session").asText())
                    || !f.getFileName().toString().startsWith("claims-")) {
                continue;
            }
            String module = card.path("module").asText();
            columns.add(module);
            for (JsonNode c : card.path("claims")) {
                claimInfo.putIfAbsent(c.path("id").asText(), c);
                byClaim.computeIfAbsent(c.path("id").asText(), k -> new LinkedHashMap<>()).put(module, c);
            }
        }
        List<Row> rows = new ArrayList<>();
        claimInfo.forEach((id, info) -> {
            List<Cell> cells = new ArrayList<>();
            for (String module : columns) {
                JsonNode c = byClaim.get(id).get(module);
                cells.add(c == null ? new Cell("–", "not judged by this checkpoint", null)
                        : new Cell(c.path("outcome").asText(), c.path("measured").asText(),
                        c.path("mustPassHere").isBoolean() ? c.path("mustPassHere").asBoolean() : null));
            }
            rows.add(new Row(id, info.path("suite").asText(), info.path("points").asInt(), info.path("statement").asText(), cells));
        });
        return new ClaimsMatrix(columns, rows);
    }

    /** @return every cell out of the lesson's shape, one line each */
    public List<String> outOfShape() {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            for (int i = 0; i < columns.size(); i++) {
                Cell c = r.cells().get(i);
                if (!c.inShape()) {
                    out.add(String.format(Locale.ROOT, "%s on %s: %s, must %s there (%s)", r.id(), columns.get(i), c.outcome(),
                            c.mustPass() ? "pass" : "fail", c.measured()));
                }
            }
        }
        return out;
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder("| claim | suite | points |");
        columns.forEach(c -> sb.append(' ').append(c).append(" |"));
        sb.append("\n|---|---|---:|");
        columns.forEach(c -> sb.append("---|"));
        sb.append('\n');
        for (Row r : rows) {
            sb.append("| ").append(r.id()).append(" | ").append(r.suite()).append(" | ").append(r.points()).append(" |");
            for (Cell c : r.cells()) {
                String mark = switch (c.outcome()) {
                    case "PASSED" -> "pass";
                    case "FAILED" -> "FAIL";
                    case "NOT_JUDGED" -> "not judged";
                    default -> c.outcome();
                };
                sb.append(' ').append(mark).append(c.inShape() ? "" : " ✗ (must " + (c.mustPass() ? "pass" : "fail") + ")").append(" |");
            }
            sb.append('\n');
        }
        sb.append("\nWhat each cell measured:\n\n");
        for (Row r : rows) {
            sb.append("- **").append(r.id()).append("** ").append(r.statement()).append('\n');
            for (int i = 0; i < columns.size(); i++) {
                sb.append("  - ").append(columns.get(i)).append(": ").append(r.cells().get(i).measured()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Writes {@code claims.md} and {@code claims.json} to {@code dir}; returns the Markdown file. */
    public Path write(Path dir) {
        return ReportWriter.writeTable(dir, FILE_NAME, markdown(), this, "the claims matrix");
    }
}

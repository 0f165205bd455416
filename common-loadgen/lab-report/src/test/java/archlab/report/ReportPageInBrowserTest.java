package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.HeadlessChromium;
import archlab.loadgen.testing.MultiSecondCheck;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report page in a real browser: headless Chromium (Debian's package; {@code .ci/run} installs it) loads the page
 * of the book's saved ch12-1 baseline from disk with the network shut off, runs its scripts, and this test reads back
 * what the page's script marked on {@code <body>}: how many charts it drew, which came out empty, and any script error.
 * It also leaves a screenshot, {@code target/reports/report-page.png}, for a person to look at.
 */
@MultiSecondCheck
class ReportPageInBrowserTest {

    @Test
    @DisplayName("in headless Chromium, offline, the report page runs its script without an error and draws its three charts, none empty; a flame graph's frame opens on its root frames, not blank space; a page whose data is broken is caught")
    void pageDrawsItsCharts(@TempDir Path dir) throws Exception {
        Optional<HeadlessChromium> browser = HeadlessChromium.find();
        Assumptions.assumeTrue(browser.isPresent(), HeadlessChromium.MISSING);
        Path json = ReportPageTest.savedBaseline(dir);
        Path page = ReportPage.write(json, RunVerdict.lines(new ObjectMapper().readTree(json.toFile()), Optional.empty()));

        String body = HeadlessChromium.bodyAttributes(browser.get().dom(page, dir));

        assertThat(body).as("what the script marked on <body>").contains("data-charts-drawn=\"3\"")
                .contains("data-charts-empty=\"\"").doesNotContain("data-error");

        Path reports = Path.of(System.getProperty("archlab.reports.dir", "target/reports"));
        Files.createDirectories(reports);
        browser.get().screenshot(page, dir, reports.toAbsolutePath().resolve("report-page.png"));
        assertThat(reports.resolve("report-page.png")).as("a screenshot to look at").isNotEmptyFile();

        // a flame graph opens on its frames, not on the blank top of a canvas taller than its frame (the allocation
        // graph of the book's ch12-1 baseline: 66 levels) nor is a short one (the lock graph: 19 levels) left unseen
        Path withGraphs = dir.resolve("with-graphs.html");
        Path figures = archlab.loadgen.testing.RepoRoot.path().resolve("book/figures");
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        Files.writeString(withGraphs, ReportPage.html(report, RunVerdict.lines(report, Optional.empty()), "", java.util.Map.of(
                "allocation", Files.readString(figures.resolve("flame-ch12-1-baseline-baseline-alloc.html")),
                "lock wait", Files.readString(figures.resolve("flame-ch12-1-baseline-baseline-lock.html")))));
        assertThat(HeadlessChromium.bodyAttribute(browser.get().dom(withGraphs, dir), "flames-on-root"))
                .as("flame graphs whose frame opened on their root").isEqualTo("2");

        Path broken = dir.resolve("broken.html");
        Files.writeString(broken, Files.readString(page).replace("const REPORT = {", "const REPORT = {,"));
        assertThat(HeadlessChromium.bodyAttributes(browser.get().dom(broken, dir)))
                .as("a page whose script cannot run draws nothing").contains("data-charts-drawn=\"0\"");
    }
}

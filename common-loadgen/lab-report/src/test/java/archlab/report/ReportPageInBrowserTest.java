package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.MultiSecondCheck;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");

    /** @return the Chromium binary, if this machine has one */
    static Optional<Path> chromium() {
        for (String candidate : List.of(System.getenv().getOrDefault("ARCHLAB_CHROMIUM", ""), "/usr/bin/chromium",
                "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (!candidate.isEmpty() && Files.isExecutable(Path.of(candidate))) {
                return Optional.of(Path.of(candidate));
            }
        }
        return Optional.empty();
    }

    /** Loads {@code page} in headless Chromium, no network, and returns the DOM after its scripts ran. */
    static String render(Path browser, Path page, Path profile, Path screenshot) throws Exception {
        List<String> command = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--proxy-server=127.0.0.1:9", "--virtual-time-budget=5000",
                "--window-size=1200,2600"));
        command.add(screenshot == null ? "--dump-dom" : "--screenshot=" + screenshot);
        command.add(page.toUri().toString());
        Path dom = Files.createTempFile(profile.getParent(), "dom-", ".html");
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(dom.toFile()).start();
        boolean finished = p.waitFor(60, TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        assertThat(finished).as("Chromium finished within 60 s").isTrue();
        return Files.readString(dom, StandardCharsets.UTF_8);
    }

    /** @return the attributes the page's script set on {@code <body>}, as one string */
    static String bodyAttributes(String dom) {
        Matcher m = BODY.matcher(dom);
        return m.find() ? m.group(1) : "";
    }

    @Test
    @DisplayName("in headless Chromium, offline, the report page runs its script without an error and draws its three charts, none empty; a page whose data is broken is caught")
    void pageDrawsItsCharts(@TempDir Path dir) throws Exception {
        Optional<Path> browser = chromium();
        Assumptions.assumeTrue(browser.isPresent(),
                "skipped: no Chromium on this machine; install it with 'apt-get install chromium' (CI's .ci/run does)");
        Path json = ReportPageTest.savedBaseline(dir);
        Path page = ReportPage.write(json, RunVerdict.lines(new ObjectMapper().readTree(json.toFile()), Optional.empty()));

        String body = bodyAttributes(render(browser.get(), page, dir.resolve("profile"), null));

        assertThat(body).as("what the script marked on <body>").contains("data-charts-drawn=\"3\"")
                .contains("data-charts-empty=\"\"").doesNotContain("data-error");

        Path reports = Path.of(System.getProperty("archlab.reports.dir", "target/reports"));
        Files.createDirectories(reports);
        render(browser.get(), page, dir.resolve("profile"), reports.toAbsolutePath().resolve("report-page.png"));
        assertThat(reports.resolve("report-page.png")).as("a screenshot to look at").isNotEmptyFile();

        Path broken = dir.resolve("broken.html");
        Files.writeString(broken, Files.readString(page).replace("const REPORT = {", "const REPORT = {,"));
        assertThat(bodyAttributes(render(browser.get(), broken, dir.resolve("profile"), null)))
                .as("a page whose script cannot run draws nothing").contains("data-charts-drawn=\"0\"");
    }
}

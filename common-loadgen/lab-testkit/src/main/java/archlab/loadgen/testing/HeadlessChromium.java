package archlab.loadgen.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium (Debian's package; {@code .ci/run} installs it) as the tests that look at a page use it: offline
 * (every connection goes to a closed port), from a profile folder of the test's own, its scripts given 5 s of virtual
 * time, and the DOM they leave (or a screenshot) read back. A page's script tells the test what it saw by attributes on
 * {@code <body>}, read by {@link #bodyAttribute}.
 *
 * <p>Thread-safety: each call starts its own browser process; calls that share a profile folder must not overlap.
 */
public final class HeadlessChromium {

    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");

    private final Path binary;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
    }

    /** @return this machine's Chromium ({@code ARCHLAB_CHROMIUM}, then the usual paths), if it has one */
    public static Optional<HeadlessChromium> find() {
        for (String candidate : List.of(System.getenv().getOrDefault("ARCHLAB_CHROMIUM", ""), "/usr/bin/chromium",
                "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (!candidate.isEmpty() && Files.isExecutable(Path.of(candidate))) {
                return Optional.of(new HeadlessChromium(Path.of(candidate)));
            }
        }
        return Optional.empty();
    }

    /** The line a test skips with when there is no Chromium. */
    public static final String MISSING = "skipped: no Chromium on this machine; install it with 'apt-get install chromium' (CI's .ci/run does)";

    /**
     * Loads {@code page} from disk with the network shut off and returns the DOM after its scripts ran.
     *
     * @param dir a folder of the caller's own (the browser's profile and the DOM's file go there)
     * @throws IllegalStateException if the browser did not finish within 60 s
     */
    public String dom(Path page, Path dir) throws IOException, InterruptedException {
        return run(page, dir, "--dump-dom");
    }

    /** Loads {@code page} as {@link #dom} does and writes a screenshot of its first 1200 × 2600 px to {@code png}. */
    public void screenshot(Path page, Path dir, Path png) throws IOException, InterruptedException {
        run(page, dir, "--screenshot=" + png.toAbsolutePath());
    }

    /** @return the value of {@code data-<name>} on the DOM's {@code <body>}, empty when it has none */
    public static String bodyAttribute(String dom, String name) {
        Matcher body = BODY.matcher(dom);
        if (!body.find()) {
            return "";
        }
        Matcher a = Pattern.compile("data-" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(body.group(1));
        return a.find() ? a.group(1) : "";
    }

    /** @return the attributes on the DOM's {@code <body>}, as one string */
    public static String bodyAttributes(String dom) {
        Matcher m = BODY.matcher(dom);
        return m.find() ? m.group(1) : "";
    }

    private String run(Path page, Path dir, String what) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + dir.resolve("profile"),
                "--proxy-server=127.0.0.1:9", "--virtual-time-budget=5000", "--window-size=1200,2600", what,
                page.toUri().toString()));
        Files.createDirectories(dir);
        Path dom = Files.createTempFile(dir, "dom-", ".html");
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(dom.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("Chromium did not finish " + page + " within 60 s");
        }
        return Files.readString(dom, StandardCharsets.UTF_8);
    }
}

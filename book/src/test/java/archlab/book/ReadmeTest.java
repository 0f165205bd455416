package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The root README is the page a newcomer reads in five minutes: short, narrow, its links alive, and its sample of a
 * report never typed by hand. A sample is a fenced block between {@code <!-- sample: FILE … -->} and
 * {@code <!-- /sample -->}; a line indented more than four spaces continues the line above it (a long report line
 * wrapped at a space to fit the page), and every line, so unwrapped, must be a line of {@code FILE} as saved.
 */
class ReadmeTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Path README = ROOT.resolve("README.md");
    private static final Pattern SAMPLE = Pattern.compile("(?ms)^<!-- sample: (\\S+)[^\\n]*-->\\n```[a-z]*\\n(.*?)\\n```\\n<!-- /sample -->");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    private static final int MOST_LINES = 200;
    private static final int WIDEST_LINE = 120;

    @Test
    @DisplayName("the README's sample report lines, unwrapped, are found verbatim in the saved report they quote, the verdict's 'limited by' and 'held' among them")
    void sampleIsQuotedVerbatim() throws IOException {
        Matcher m = SAMPLE.matcher(Files.readString(README));
        int samples = 0;
        while (m.find()) {
            samples++;
            Path saved = ROOT.resolve(m.group(1));
            assertThat(saved).as("the file README.md's sample quotes").isRegularFile();
            Set<String> lines = new HashSet<>(Files.readAllLines(saved));
            List<String> quoted = unwrapped(m.group(2));
            assertThat(quoted).as("lines of the sample from %s", m.group(1))
                    .anySatisfy(l -> assertThat(l).startsWith("  limited by: "))
                    .anySatisfy(l -> assertThat(l).startsWith("  held: "));
            assertThat(quoted.stream().filter(l -> !l.isBlank()).filter(l -> !lines.contains(l)).toList())
                    .as("README.md's sample lines not found verbatim in %s (refresh the sample from the file)", m.group(1))
                    .isEmpty();
        }
        assertThat(samples).as("samples in README.md").isPositive();
    }

    @Test
    @DisplayName("the sample's unwrapping: an indented continuation joins the line above with one space")
    void continuationsJoin() {
        assertThat(unwrapped("  limited by: lock.wait, 99.6 % of\n      the self time\n\noffered=4500"))
                .containsExactly("  limited by: lock.wait, 99.6 % of the self time", "", "offered=4500");
    }

    @Test
    @DisplayName("the README fits five minutes: at most 200 lines, none wider than 120 characters, every relative link leads to a file")
    void readmeIsShortNarrowAndLinked() throws IOException {
        List<String> lines = Files.readAllLines(README);
        assertThat(lines).as("README.md's lines (move the rest to a page under docs/)").hasSizeLessThanOrEqualTo(MOST_LINES);
        List<String> wide = new ArrayList<>();
        List<String> dead = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.codePointCount(0, l.length()) > WIDEST_LINE) {
                wide.add("README.md:" + (i + 1) + " (" + l.codePointCount(0, l.length()) + " characters)");
            }
            Matcher link = LINK.matcher(l);
            while (link.find()) {
                String target = link.group(1);
                if (!target.contains("://") && !Files.exists(ROOT.resolve(target))) {
                    dead.add("README.md:" + (i + 1) + " " + target);
                }
            }
        }
        assertThat(wide).as("README.md lines wider than %d characters", WIDEST_LINE).isEmpty();
        assertThat(dead).as("README.md links to missing files").isEmpty();
    }

    /** @return the sample's lines, each line indented by more than four spaces joined to the one above with a space */
    static List<String> unwrapped(String sample) {
        List<String> lines = new ArrayList<>();
        for (String l : sample.split("\n", -1)) {
            if (l.startsWith("     ") && !lines.isEmpty()) {
                lines.set(lines.size() - 1, lines.getLast() + " " + l.strip());
            } else {
                lines.add(l);
            }
        }
        return lines;
    }
}

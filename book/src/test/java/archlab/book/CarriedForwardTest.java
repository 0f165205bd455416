package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checkpoints are full copies, each changed only where its lesson asks; {@code book/carried-forward.md} lists,
 * for each step, every file under {@code src/} as kept, changed, new or gone, and why. The trap this guards: a fix
 * made in one copy and not the other (or an edit made by accident), which silently turns a kept file into a
 * difference the chapter never explains, so {@code diff -ru} of two checkpoints stops being the chapter.
 */
class CarriedForwardTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Path LIST = ROOT.resolve("book/carried-forward.md");
    private static final Pattern STEP = Pattern.compile("^## (\\S+) → (\\S+)$");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (kept|changed|new|gone) \\| (.*) \\|$");

    /** One step of the list: the checkpoint before, the one after, and each file's status and reason. */
    record Step(String before, String after, Map<String, String[]> files) {
        @Override
        public String toString() {
            return before + " → " + after;
        }
    }

    static List<Step> steps() {
        List<Step> steps = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(LIST)) {
                Matcher step = STEP.matcher(line);
                Matcher row = ROW.matcher(line);
                if (step.matches()) {
                    steps.add(new Step(step.group(1), step.group(2), new LinkedHashMap<>()));
                } else if (row.matches()) {
                    assertThat(steps).as("a row before any step heading: " + line).isNotEmpty();
                    steps.getLast().files().put(row.group(1), new String[] {row.group(2), row.group(3).trim()});
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return steps;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("steps")
    @DisplayName("every file a checkpoint keeps from the step before is byte-identical to it; every changed, new or gone file is listed with its reason; no file is unlisted")
    void carriedForwardAsListed(Step step) throws IOException {
        Path before = ROOT.resolve(step.before());
        Path after = ROOT.resolve(step.after());
        assertThat(before.resolve("src")).as(step.before()).isDirectory();
        assertThat(after.resolve("src")).as(step.after()).isDirectory();
        TreeSet<String> files = new TreeSet<>(filesUnder(before));
        files.addAll(filesUnder(after));
        List<String> wrong = new ArrayList<>();
        for (String f : files) {
            String actual = status(before.resolve(f), after.resolve(f));
            String[] listed = step.files().get(f);
            if (listed == null) {
                wrong.add("not listed: | `" + f + "` | " + actual + " | " + (actual.equals("kept") ? "" : "<why the lesson needs it>") + " |");
            } else if (!listed[0].equals(actual)) {
                wrong.add(f + ": listed as " + listed[0] + ", but it is " + actual
                        + (listed[0].equals("kept") ? " (it drifted from " + step.before() + "'s copy; make the copies equal again, or list it as changed, with why)" : ""));
            } else if (!actual.equals("kept") && listed[1].isEmpty()) {
                wrong.add(f + ": " + actual + " without a reason");
            }
        }
        step.files().keySet().stream().filter(f -> !files.contains(f))
                .forEach(f -> wrong.add(f + ": listed, but in neither checkpoint"));
        assertThat(wrong).as("book/carried-forward.md, step " + step).isEmpty();
    }

    private static String status(Path before, Path after) throws IOException {
        if (Files.isRegularFile(before) && Files.isRegularFile(after)) {
            return Arrays.equals(Files.readAllBytes(before), Files.readAllBytes(after)) ? "kept" : "changed";
        }
        return Files.isRegularFile(after) ? "new" : "gone";
    }

    private static List<String> filesUnder(Path module) throws IOException {
        try (Stream<Path> walk = Files.walk(module.resolve("src"))) {
            return walk.filter(Files::isRegularFile).map(p -> module.relativize(p).toString().replace('\\', '/')).toList();
        }
    }
}

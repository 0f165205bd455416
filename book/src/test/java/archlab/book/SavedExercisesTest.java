package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every exercise's answer comes from a saved run: {@code book/exercises.sh} lists the exercises (its {@code all=(…)}),
 * runs each, and saves its reports and {@code run.txt} under {@code book/results/exercises/<id>/}; the guide quotes
 * those folders. The trap: an answer whose numbers were typed from a run nobody kept.
 */
class SavedExercisesTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Path SAVED = ROOT.resolve("book/results/exercises");

    /** @return the ids in exercises.sh's {@code all=( … )} */
    private static List<String> listedExercises() throws IOException {
        String script = Files.readString(ROOT.resolve("book/exercises.sh"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?s)\\nall=\\((.*?)\\)").matcher(script);
        assertThat(m.find()).as("exercises.sh has all=( … )").isTrue();
        return Arrays.stream(m.group(1).split("\\s+")).filter(s -> !s.isBlank()).toList();
    }

    @Test
    @DisplayName("at least 10 exercises are saved, each exercise exercises.sh lists has its folder with a run.txt of a Maven run that completed and at least one report")
    void everyListedExerciseIsSaved() throws IOException {
        List<String> listed = listedExercises();
        assertThat(listed).hasSizeGreaterThanOrEqualTo(10);
        List<String> problems = new ArrayList<>();
        int saved = 0;
        for (String id : listed) {
            Path dir = SAVED.resolve(id);
            if (!Files.isDirectory(dir)) {
                problems.add(id + ": no folder (run bash book/exercises.sh " + id + ")");
                continue;
            }
            List<Path> runTxt;
            long reports;
            try (Stream<Path> files = Files.list(dir)) {
                List<Path> all = files.toList();
                runTxt = all.stream().filter(f -> f.getFileName().toString().endsWith("run.txt")).toList();
                reports = all.stream().filter(f -> f.getFileName().toString().matches(".*\\.(json|md)$")).count();
            }
            if (runTxt.isEmpty() || reports == 0) {
                problems.add(id + ": " + runTxt.size() + " run.txt, " + reports + " report(s)");
                continue;
            }
            for (Path r : runTxt) {
                String text = Files.readString(r, StandardCharsets.UTF_8);
                if (!text.contains("\nmaven_exit=0\n") || !text.contains("\ncommand=mvn ")) {
                    problems.add(ROOT.relativize(r) + ": not a completed Maven run");
                }
            }
            saved++;
        }
        assertThat(problems).isEmpty();
        assertThat(saved).isGreaterThanOrEqualTo(10);
    }

    @Test
    @DisplayName("the guide's answers quote every saved exercise, and every exercise with a code change has its patch")
    void theGuideQuotesEverySavedExercise() throws IOException {
        String guide = Files.readString(ROOT.resolve("book/guide.md"), StandardCharsets.UTF_8);
        List<String> unquoted = new ArrayList<>();
        for (String id : listedExercises()) {
            if (!guide.contains("exercises/" + id + "/")) {
                unquoted.add(id);
            }
        }
        assertThat(unquoted).as("saved exercises the guide never reads").isEmpty();
        String script = Files.readString(ROOT.resolve("book/exercises.sh"), StandardCharsets.UTF_8);
        Matcher patched = Pattern.compile("(?m)^([0-9A-Za-z.-]+)\\(\\)\\s*\\{[^\\n]*patched \"\\$FUNCNAME\"|^([0-9A-Za-z.-]+)\\(\\) \\{\\n  local d; d=\\$\\(patched").matcher(script);
        int patches = 0;
        while (patched.find()) {
            String id = patched.group(1) != null ? patched.group(1) : patched.group(2);
            assertThat(ROOT.resolve("book/exercises").resolve(id + ".patch")).as(id + "'s patch").isRegularFile();
            patches++;
        }
        assertThat(patches).as("exercises with a code change").isGreaterThanOrEqualTo(4);
    }
}

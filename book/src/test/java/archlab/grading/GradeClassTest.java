package archlab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * book/grading/grade-class.sh grades every student of a folder with grade-student.sh, one at a time, into one CSV.
 * Here grade-student.sh is a stub (ARCHLAB_GRADE_STUDENT) that copies each student's canned scorecard, prints its
 * points line, exits with its status and counts its calls: no student is really graded.
 */
class GradeClassTest {

    private static final Path SCRIPT = RepoRoot.path().resolve("book/grading/grade-class.sh");
    private static final String HEADER = "student,points,possible,exit,failed_claims,not_judged,refused,seconds,seed";
    /** The stub: grade-student.sh's arguments and contract, each student's outcome from files the test writes. */
    private static final String STUB = """
            #!/usr/bin/env bash
            # fake grade-student.sh <student> <chapter> --out DIR [--seed N]; the seed comes in ARCHLAB_GRADE_SEED
            set -euo pipefail
            student=$1 chapter=$2 out='' seed=${ARCHLAB_GRADE_SEED:-}
            shift 2
            while [ $# -gt 0 ]; do
              case "$1" in
                --out) out=$2; shift 2 ;;
                --seed) seed=$2; shift 2 ;;
                *) echo "unknown option '$1'" >&2; exit 2 ;;
              esac
            done
            name=${student##*/} card="$STUB_DIR/cards/${student##*/}"
            echo "$name ${seed:--}" >> "$STUB_DIR/calls"
            if [ -f "$STUB_DIR/hang-$name" ]; then echo $$ > "$STUB_DIR/pid"; sleep 60; fi
            mkdir -p "$out"
            [ ! -f "$card.json" ] || sed "s/%SEED%/${seed:+, \\"seed\\": $seed}/" "$card.json" > "$out/grade-$chapter.json"
            cp "$card.md" "$out/grade-$chapter.md"
            cat "$card.md"
            [ ! -f "$card.err" ] || cat "$card.err" >&2
            exit "$(cat "$card.rc")"
            """;

    @TempDir
    Path tmp;
    private Path stubDir;
    private Path students;
    private Path out;

    @BeforeEach
    void aClass() throws IOException {
        stubDir = Files.createDirectories(tmp.resolve("stub"));
        Files.createDirectories(stubDir.resolve("cards"));
        Path stub = stubDir.resolve("grade-student.sh");
        Files.writeString(stub, STUB, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        students = Files.createDirectories(tmp.resolve("class"));
        out = tmp.resolve("class-12.2");
        student("alice", 0, List.of(claim("C1", "PASSED"), claim("C2", "PASSED")), List.of(), 4,
                "points 4/4 (ch12-1-baseline, grade 12.2): 2 passed, 0 failed, 0 not judged");
        student("bob", 1, List.of(claim("C1", "FAILED"), claim("C2", "PASSED"), claim("C3", "FAILED")), List.of(), 1,
                "points 1/4 (ch12-1-baseline, grade 12.2): 1 passed, 2 failed, 0 not judged");
        student("carol", 1, List.of(claim("C1", "PASSED")), List.of("class archlab.order.Spy uses reflection, \\\"setAccessible\\\""), 0,
                "points 0/4 (ch12-1-baseline, grade 12.2): refused, 1 reason(s): class archlab.order.Spy uses reflection, \"setAccessible\"");
        student("dave", 3, List.of(claim("C1", "PASSED"), claim("C2", "NOT_JUDGED")), List.of(), 2,
                "points 2/4 (ch12-1-baseline, grade 12.2): 1 passed, 0 failed, 1 not judged");
        // a zero before judging: grade-student.sh writes only the Markdown and says why last, on stderr
        Files.createDirectories(students.resolve("zed"));
        Files.writeString(card("zed.md"), "# ch12-1-baseline: grade 12.2\n\npoints 0 (ch12-1-baseline, grade 12.2): the student's code did not build, see the log\n");
        Files.writeString(card("zed.err"), "points 0: the student's code did not build, see the log\n");
        Files.writeString(card("zed.rc"), "1");
        Files.createDirectories(students.resolve("bad name"));
        Files.createDirectories(students.resolve(".git"));
    }

    private Path card(String file) {
        return stubDir.resolve("cards").resolve(file);
    }

    private static String claim(String id, String outcome) {
        return "{\"id\": \"" + id + "\", \"points\": 1, \"outcome\": \"" + outcome + "\"}";
    }

    private void student(String name, int exit, List<String> claims, List<String> refusals, int points, String line) throws IOException {
        Files.createDirectories(students.resolve(name).resolve("ch12-1-baseline/src/main/java"));
        Files.writeString(card(name + ".json"), "{\"kind\": \"claims-scorecard\", \"module\": \"ch12-1-baseline\", \"title\": \"grade 12.2\", "
                + "\"pointsEarned\": " + points + ", \"pointsPossible\": 4, \"allPassed\": " + (exit == 0) + ", \"refusals\": ["
                + String.join(", ", refusals.stream().map(r -> "\"" + r + "\"").toList()) + "], \"claims\": [" + String.join(", ", claims)
                + "]%SEED%}\n");
        Files.writeString(card(name + ".md"), "# ch12-1-baseline: grade 12.2\n\n" + line + "\n\n| claim | … |\n" + line + "\n");
        Files.writeString(card(name + ".rc"), String.valueOf(exit));
    }

    private record Run(int exit, String output) {
    }

    private Run gradeClass(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = start(command);
        boolean ended = p.waitFor(20, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertThat(ended).as("grade-class.sh ended within 20 s").isTrue();
        return new Run(p.exitValue(), output());
    }

    /** @return grade-class.sh's stdout and stderr, of the last run */
    private String output() throws IOException {
        return Files.readString(tmp.resolve("run.out"), StandardCharsets.UTF_8);
    }

    private Process start(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("run.out").toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Map<String, String> env = pb.environment();
        env.put("ARCHLAB_GRADE_STUDENT", stubDir.resolve("grade-student.sh").toString());
        env.put("STUB_DIR", stubDir.toString());
        return pb.start();
    }

    /** @return the stub's calls since the last call of this, one "student seed" each */
    private List<String> calls() throws IOException {
        Path calls = stubDir.resolve("calls");
        if (!Files.exists(calls)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(calls);
        Files.delete(calls);
        return lines;
    }

    private List<List<String>> table() throws IOException {
        return csv(Files.readString(out.resolve("class-12.2.csv"), StandardCharsets.UTF_8));
    }

    /** @return the rows of an RFC 4180 text, each row's fields */
    static List<List<String>> csv(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                field.append(c);
            }
        }
        assertThat(quoted).as("a quoted field left open").isFalse();
        assertThat(field.isEmpty() && row.isEmpty()).as("the table ends with a line break").isTrue();
        return rows;
    }

    /** @return the row without its seconds (the stub takes none, but a second may tick over) */
    private static List<String> withoutSeconds(List<String> row) {
        List<String> r = new ArrayList<>(row);
        assertThat(r.get(7)).as("seconds of " + r.get(0)).matches("[0-9]*");
        r.set(7, "s");
        return r;
    }

    @Test
    @DisplayName("each student is graded once, in sorted order, into one CSV row each: points, claims failed and not judged, refusal reasons quoted; a bad folder name is a row, not a grading; exit 3 while a row needs a regrade")
    void gradesTheClassIntoOneTable() throws Exception {
        Run run = gradeClass(students.toString());

        assertThat(run.exit()).as(run.output()).isEqualTo(3);
        assertThat(calls()).containsExactly("alice -", "bob -", "carol -", "dave -", "zed -");
        String text = Files.readString(out.resolve("class-12.2.csv"));
        assertThat(text).startsWith(HEADER + "\n")
                .contains("\"class archlab.order.Spy uses reflection, \"\"setAccessible\"\"\"")
                .contains(",\"the student's code did not build, see the log\",");
        List<List<String>> table = table();
        assertThat(table.get(0)).containsExactly(HEADER.split(","));
        assertThat(table.subList(1, table.size()).stream().map(GradeClassTest::withoutSeconds).toList()).containsExactly(
                List.of("alice", "4", "4", "0", "", "", "", "s", ""),
                List.of("bad name", "0", "", "", "", "", "not graded: the folder's name is not [A-Za-z0-9._-]+ (rename it)", "s", ""),
                List.of("bob", "1", "4", "1", "C1;C3", "", "", "s", ""),
                List.of("carol", "0", "4", "1", "", "", "class archlab.order.Spy uses reflection, \"setAccessible\"", "s", ""),
                List.of("dave", "2", "4", "3", "", "C2", "", "s", ""),
                List.of("zed", "0", "", "1", "", "", "the student's code did not build, see the log", "s", ""));
        for (String s : List.of("alice", "bob", "carol", "dave", "zed")) {
            assertThat(out.resolve(s).resolve("grade-12.2.md")).isRegularFile();
            assertThat(out.resolve(s).resolve("grading.log")).content().contains("points ");
        }
        assertThat(out.resolve("zed/grading.log")).content().endsWith("points 0: the student's code did not build, see the log\n");
        assertThat(out.resolve(".git")).doesNotExist();
        assertThat(run.output()).contains("the table: " + out.toRealPath().resolve("class-12.2.csv"), "bad\\ name",
                "6 students: 1 full marks, 1 failed, 1 regrade, 3 refused", "graded 5, skipped 0", "--regrade");
    }

    @Test
    @DisplayName("a rerun skips the students already graded; --regrade grades again only the rows that need it; a student without a row or without a scorecard is graded again")
    void resumes() throws Exception {
        assertThat(gradeClass(students.toString()).exit()).isEqualTo(3);
        calls();
        List<List<String>> first = table();

        Run again = gradeClass(students.toString());
        assertThat(again.exit()).isEqualTo(3);
        assertThat(calls()).isEmpty();
        assertThat(again.output()).contains("alice: already graded (points 4/4, exit 0)", "graded 0, skipped 5");
        assertThat(table()).isEqualTo(first);

        assertThat(gradeClass(students.toString(), "--regrade").exit()).isEqualTo(3);
        assertThat(calls()).containsExactly("dave -");
        Files.writeString(card("dave.rc"), "0");
        Files.writeString(card("dave.json"), Files.readString(card("dave.json")).replace("NOT_JUDGED", "PASSED"));
        Run regraded = gradeClass(students.toString(), "--regrade");
        assertThat(regraded.exit()).as(regraded.output()).isZero();
        assertThat(calls()).containsExactly("dave -");
        assertThat(table().get(5).subList(0, 6)).containsExactly("dave", "2", "4", "0", "", "");

        // carol was interrupted before her row was written (the table without it); bob's scorecard is gone
        List<String> lines = new ArrayList<>(Files.readAllLines(out.resolve("class-12.2.csv")));
        lines.removeIf(l -> l.startsWith("carol,"));
        Files.write(out.resolve("class-12.2.csv"), lines);
        Files.delete(out.resolve("bob/grade-12.2.md"));
        Files.delete(out.resolve("bob/grade-12.2.json"));
        assertThat(gradeClass(students.toString()).exit()).isZero();
        assertThat(calls()).containsExactly("bob -", "carol -");
        assertThat(table()).extracting(r -> r.get(0)).containsExactly("student", "alice", "bad name", "bob", "carol", "dave", "zed");
    }

    @Test
    @DisplayName("a grading stopped by a signal leaves no row, no partial scorecard and no grader process; the next run grades that student again, --again everyone")
    void interruptedStudentIsGradedAgain() throws Exception {
        deleteStudents("carol", "dave", "zed", "bad name");
        Files.createFile(stubDir.resolve("hang-bob"));
        Process p = start(List.of("bash", SCRIPT.toString(), students.toString()));
        Path pid = stubDir.resolve("pid");
        long stub;
        try {
            for (int i = 0; i < 100 && !(Files.exists(pid) && Files.readString(pid).endsWith("\n")); i++) {
                Thread.sleep(50);
            }
            assertThat(pid).as("the stub grading bob started").isNotEmptyFile();
            stub = Long.parseLong(Files.readString(pid).trim());
            p.destroy(); // SIGTERM, as kill would
            assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        String output = output();

        assertThat(p.exitValue()).as(output).isEqualTo(143);
        assertThat(output).contains("stopped by SIGTERM while grading bob");
        assertThat(ProcessHandle.of(stub).map(ProcessHandle::isAlive)).as("the stub grading bob").isNotEqualTo(Optional.of(true));
        assertThat(table()).extracting(r -> r.get(0)).containsExactly("student", "alice");
        assertThat(out.resolve("bob/grade-12.2.md")).doesNotExist();
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("class-12.2.csv", "alice", "bob");
        }
        calls();

        Files.delete(stubDir.resolve("hang-bob"));
        Run next = gradeClass(students.toString());
        assertThat(next.exit()).as(next.output()).isZero();
        assertThat(calls()).containsExactly("bob -");
        assertThat(table()).extracting(r -> r.get(0)).containsExactly("student", "alice", "bob");

        assertThat(gradeClass(students.toString(), "--again").exit()).isZero();
        assertThat(calls()).containsExactly("alice -", "bob -");
    }

    @Test
    @DisplayName("--seed goes to each grading and into the seed column; a student graded with another seed is graded again")
    void seed() throws Exception {
        deleteStudents("bad name", "carol", "dave");
        assertThat(gradeClass(students.toString(), "--seed", "7", "--out", "seeded").exit()).isZero();
        assertThat(calls()).containsExactly("alice 7", "bob 7", "zed 7");
        out = tmp.resolve("seeded");
        assertThat(table()).extracting(r -> r.get(8)).containsExactly("seed", "7", "7", "7");
        assertThat(gradeClass(students.toString(), "--seed", "7", "--out", "seeded").exit()).isZero();
        assertThat(calls()).isEmpty();
        assertThat(gradeClass(students.toString(), "--seed=8", "--out=seeded").exit()).isZero();
        assertThat(calls()).containsExactly("alice 8", "bob 8", "zed 8");
    }

    @Test
    @DisplayName("usage errors exit 2 with a message and no stack trace: no folder, a bad chapter, option or seed, a CSV that is not a class table; --help exits 0")
    void usageErrors() throws Exception {
        assertThat(gradeClass("--help")).satisfies(r -> assertThat(r.exit()).isZero()).satisfies(r -> assertThat(r.output()).contains("usage:", HEADER));
        assertThat(gradeClass().exit()).isEqualTo(2);
        Run missing = gradeClass(tmp.resolve("nowhere").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.output()).contains("no folder of students");
        assertThat(gradeClass(students.toString(), "12.9").output()).contains("unknown chapter '12.9'");
        assertThat(gradeClass(students.toString(), "12.9").exit()).isEqualTo(2);
        assertThat(gradeClass(students.toString(), "--frobnicate").exit()).isEqualTo(2);
        assertThat(gradeClass(students.toString(), "--seed", "x").exit()).isEqualTo(2);
        Files.createDirectories(out);
        Files.writeString(out.resolve("class-12.2.csv"), "name,grade\nalice,4\n");
        Run foreign = gradeClass(students.toString());
        assertThat(foreign.exit()).isEqualTo(2);
        assertThat(foreign.output()).contains("is not a class table").doesNotContain("Traceback");
        assertThat(calls()).isEmpty();
    }

    private void deleteStudents(String... names) throws IOException {
        for (String name : names) {
            try (Stream<Path> all = Files.walk(students.resolve(name))) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}

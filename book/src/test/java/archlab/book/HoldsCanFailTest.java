package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A sentence's condition is a check only if some numbers would make it false. Each {@code holds} of the book is
 * evaluated under many made-up assignments of its values (drawn, with a fixed seed, from a small pool where equal
 * values, zeros and values orders of magnitude apart all occur); one that holds under every assignment — such as
 * {@code (a - b) * (a - b) >= 0}, or {@code x >= 0} of a count — cannot fail, and this test names it.
 */
class HoldsCanFailTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Pattern HOLDS = Pattern.compile("<!-- holds: (.+?) -->");
    private static final double[] POOL = {0, 0.001, 0.5, 1, 2, 3, 7, 10, 50, 100, 999, 1_000, 20_000, 1e6};
    private static final int TRIES = 3_000;

    /** @return whether some assignment of made-up values makes {@code condition} false */
    static boolean canFail(Holds condition) {
        SplittableRandom random = new SplittableRandom(12);
        for (int t = 0; t < TRIES; t++) {
            Map<String, Double> assigned = new HashMap<>();
            Holds.Lookup madeUp = (file, path) -> assigned.computeIfAbsent(file + ":" + path, k -> POOL[random.nextInt(POOL.length)]);
            if (!condition.evaluate(madeUp).holds()) {
                return true;
            }
        }
        return false;
    }

    @Test
    @DisplayName("every holds condition of the book can fail: some numbers make it false")
    void everyConditionCanFail() throws IOException {
        List<String> cannotFail = new ArrayList<>();
        int conditions = 0;
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                Matcher m = HOLDS.matcher(Files.readString(p, StandardCharsets.UTF_8));
                while (m.find()) {
                    conditions++;
                    if (!canFail(Holds.parse(m.group(1)))) {
                        cannotFail.add(ROOT.relativize(p) + ": " + m.group(1));
                    }
                }
            }
        }
        assertThat(conditions).as("conditions checked").isPositive();
        assertThat(cannotFail).as("conditions no numbers make false").isEmpty();
    }

    @Test
    @DisplayName("the check itself: a tautology cannot fail, a real comparison can")
    void tellsATautologyFromACheck() {
        assertThat(canFail(Holds.parse("a.json:x - a.json:y == a.json:x - a.json:y"))).isFalse();
        assertThat(canFail(Holds.parse("(a.json:x - a.json:y) * (a.json:x - a.json:y) >= 0"))).isFalse();
        assertThat(canFail(Holds.parse("(a.json:x - a.json:y) * (a.json:x - a.json:y) > 0"))).isTrue();
        assertThat(canFail(Holds.parse("a.json:x > 2 * a.json:y"))).isTrue();
    }
}

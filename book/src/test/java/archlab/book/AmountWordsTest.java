package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A word for an amount means a fixed range, and the sentence that uses it must say so in its condition.
 *
 * <p>The trap: "泄漏的预占上千笔" with {@code holds: leaked > 100} passes every refresh while the number is 935, which is
 * not 上千. A marker looser than its words lets the sentence go false without a failure. So every amount word of the
 * book's table ({@code book/authoring.md}, read by {@link AmountWords}) used in a chapter's prose must be backed by a
 * {@code holds} after its sentence whose top-level {@code and}s bound one quantity to the word's range — in the
 * word's unit or a power of a thousand of it ({@code total > 100000000000 and total < 1000000000000} backs 几百秒 of a
 * value in nanoseconds), or as a ratio ({@code a > 10 * b} backs 一个数量级) — or by {@code <!-- words: why -->}
 * saying it is not a measured amount (a setting, a count of the text's own items). The lint cannot tell which
 * quantity a word is about; the review can, reading the condition beside the word.
 */
class AmountWordsTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();

    @Test
    @DisplayName("every amount word of book/authoring.md's table in the book's prose is bounded to its range by its sentence's holds, or said not to be a measurement")
    void everyAmountWordIsBoundedByItsSentence() throws IOException {
        AmountWords words = AmountWords.fromTable(Files.readString(ROOT.resolve("book/authoring.md"), StandardCharsets.UTF_8));
        assertThat(words.size()).as("words in book/authoring.md's table").isGreaterThanOrEqualTo(10);
        List<String> loose = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String name = p.getFileName().toString();
                if (name.equals("README.md") || name.equals("authoring.md") || name.equals("carried-forward.md")) {
                    continue;
                }
                for (AmountWords.Use use : words.uses(Files.readString(p, StandardCharsets.UTF_8))) {
                    checked++;
                    use.problem().ifPresent(why -> loose.add(ROOT.relativize(p) + ":" + use.line() + " 「" + use.word() + "」 " + why
                            + "\n    in: " + use.sentence()));
                }
            }
        }
        assertThat(checked).as("amount words found").isPositive();
        assertThat(loose).as("amount words whose sentence does not bound them (tighten the holds, reword, or <!-- words: why -->)")
                .isEmpty();
    }

    @Test
    @DisplayName("the lint itself: a bound pair in the word's range backs it, a one-sided or wider bound does not, nor a bound under 'or'")
    void tellsABoundFromALooseMarker() {
        AmountWords words = AmountWords.fromTable("""
                | words | from | to | of |
                | --- | --- | --- | --- |
                | 上千、几千 | 1000 | 9999 | count |
                | 几十 | 20 | 99 | count |
                | 一个数量级 | 10 | — | ratio |
                | 一半 | 0.4 | 0.6 | ratio |
                | 翻倍 | 1.8 | 2.2 | ratio |
                """);
        assertThat(problem(words, "泄漏的预占上千笔。<!-- holds: a.json:leaked >= 1000 and a.json:leaked < 10000 -->")).isEmpty();
        assertThat(problem(words, "泄漏的预占上千笔。<!-- holds: a.json:leaked > 100 -->")).hasValueSatisfying(w -> assertThat(w).contains("1000"));
        assertThat(problem(words, "泄漏的预占上千笔。<!-- holds: a.json:leaked >= 1000 -->")).as("no upper bound").isPresent();
        assertThat(problem(words, "上千笔。<!-- holds: a.json:leaked >= 1000 and a.json:leaked < 10000 or a.json:x > 1 -->")).isPresent();
        assertThat(problem(words, "超出几十毫秒。<!-- holds: a.json:overNanos > 20000000 and a.json:overNanos < 100000000 -->"))
                .as("in nanoseconds").isEmpty();
        assertThat(problem(words, "超出几十毫秒。<!-- holds: a.json:overMillis > 20 and a.json:overMillis < 250 -->")).isPresent();
        assertThat(problem(words, "几十笔以上的订单。<!-- holds: a.json:n >= 20 -->")).as("以上: no upper bound needed").isEmpty();
        assertThat(problem(words, "降了一个数量级以上。<!-- holds: a.json:before > 10 * a.json:after -->")).isEmpty();
        assertThat(problem(words, "降了一个数量级以上。<!-- holds: a.json:before > 2 * a.json:after -->")).isPresent();
        assertThat(problem(words, "约一半。<!-- holds: a.json:x > 0.4 * a.json:y and a.json:x < 0.6 * a.json:y -->")).isEmpty();
        assertThat(problem(words, "失败过一半就打开。<!-- words: the breaker's setting -->")).isEmpty();
        assertThat(problem(words, "失败过一半就打开。<!-- words:  -->")).as("a reason is required").isPresent();
        assertThat(problem(words, "上千笔。")).isPresent();
        assertThat(problem(words, "几十笔。<!-- holds: a.json:n >= 20000 and a.json:n < 100000 -->")).as("a count has no scale").isPresent();
        assertThat(problem(words, "延迟翻倍。<!-- holds: a.json:p99Micros >= 1.8 and a.json:p99Micros <= 2.2 -->"))
                .as("a ratio word needs a ratio").isPresent();
        assertThat(problem(words, "一半的请求。<!-- holds: a.json:hitRatio >= 0.4 and a.json:hitRatio <= 0.6 -->")).as("a ratio by name").isEmpty();
        assertThat(problem(words, "一半的时间。<!-- holds: a.json:sharePercent >= 40 and a.json:sharePercent <= 60 -->")).as("a percentage").isEmpty();
        assertThat(words.uses("「上千笔」。")).as("a quote of a source is the source's").isEmpty();
        assertThat(words.uses("`上千笔`。")).as("inline code").isEmpty();
    }

    /** @return the first use's problem, or empty when every use is bounded; a text with no use fails: nothing was judged */
    private static Optional<String> problem(AmountWords words, String text) {
        List<AmountWords.Use> uses = words.uses(text);
        if (uses.isEmpty() && (text.contains("「") || text.contains("`"))) {
            return Optional.empty(); // a quote or code: not prose, so no use, as asked
        }
        assertThat(uses).as("uses found in: " + text).isNotEmpty();
        return uses.stream().map(AmountWords.Use::problem).filter(Optional::isPresent).map(Optional::get).findFirst();
    }
}

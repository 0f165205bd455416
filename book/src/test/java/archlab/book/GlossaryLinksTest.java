package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A term the book does not explain where it uses it is explained in the glossary, and the page links there at its
 * first use. The trap it guards: a chapter that says WAL, {@code synchronous_commit} or SIGKILL to a reader who has
 * never met them, and a glossary that lists what nobody links to.
 *
 * <p>For each term of {@link #TERMS}: the glossary has an entry, and on every chapter and appendix that uses it, its
 * first use in the text (not in code, a comment or a heading) is inside a link to the glossary.
 */
class GlossaryLinksTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final String GLOSSARY = "appendix-glossary.md";

    /** The terms, each with the words that name it in the text. */
    static final Map<String, String> TERMS = Map.of(
            "WAL", "WAL",
            "synchronous_commit", "synchronous_commit",
            "SIGKILL", "SIGKILL",
            "SKIP LOCKED", "SKIP LOCKED",
            "租约", "租约",
            "咨询锁", "咨询锁",
            "闭环", "闭环");

    @Test
    @DisplayName("every term the chapters leave unexplained (WAL, synchronous_commit, SIGKILL, SKIP LOCKED, 租约, 咨询锁, 闭环) is in the glossary and linked there at its first use on each page")
    void termsAreLinkedAtFirstUse() throws IOException {
        String glossary = Files.readString(ROOT.resolve("book").resolve(GLOSSARY), StandardCharsets.UTF_8);
        List<String> wrong = new ArrayList<>();
        TERMS.forEach((term, words) -> {
            if (!glossary.contains(words)) {
                wrong.add(GLOSSARY + ": no entry for " + term);
            }
        });
        java.util.Set<String> linkedSomewhere = new java.util.TreeSet<>();
        for (Path page : pages()) {
            String text = Files.readString(page, StandardCharsets.UTF_8);
            TERMS.forEach((term, words) -> {
                Optional<String> unlinked = firstUseUnlinked(text, words);
                unlinked.ifPresent(line -> wrong.add(page.getFileName() + ": first use of " + term + " not linked to the glossary: " + line));
                if (unlinked.isEmpty() && usedInText(text, words)) {
                    linkedSomewhere.add(term);
                }
            });
        }
        assertThat(wrong).isEmpty();
        assertThat(linkedSomewhere).as("terms a page links to the glossary (an entry nobody links to is not checked)")
                .containsExactlyInAnyOrderElementsOf(TERMS.keySet());
    }

    @Test
    @DisplayName("the first use is read from the text: a use in code, a comment or a heading does not count, a link to the glossary around the first use in a sentence passes, an unlinked one fails")
    void firstUseIsReadFromTheText() {
        assertThat(firstUseUnlinked("## WAL 是什么\n\n`WAL` <!-- WAL -->\n\n一次 [WAL](appendix-glossary.md#x) 刷盘，再一次 WAL。\n", "WAL")).isEmpty();
        assertThat(firstUseUnlinked("```\nWAL\n```\n\n等一次 WAL 刷盘。[WAL](appendix-glossary.md#x)\n", "WAL")).isPresent();
        assertThat(firstUseUnlinked("中继用 [`FOR UPDATE SKIP LOCKED`](appendix-glossary.md#x) 认领\n", "SKIP LOCKED")).isEmpty();
        assertThat(firstUseUnlinked("没有这个词\n", "WAL")).isEmpty();
    }

    private static List<Path> pages() throws IOException {
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            return md.filter(f -> f.getFileName().toString().matches("(12-\\d-|appendix-).*\\.md"))
                    .filter(f -> !f.getFileName().toString().equals(GLOSSARY) && !f.getFileName().toString().equals("appendix-claims.md"))
                    .sorted().toList();
        }
    }

    /** @return the line of the first use of {@code words} outside code, comments and headings, when it is not in a glossary link */
    static Optional<String> firstUseUnlinked(String markdown, String words) {
        String text = Prose.withoutFencesAndComments(markdown);
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            int at = firstOutsideInlineCode(line, words);
            if (at < 0) {
                continue;
            }
            int open = line.lastIndexOf('[', at);
            int closeBefore = line.lastIndexOf(']', at);
            int close = line.indexOf("](", at);
            boolean linked = open > closeBefore && close > at && line.startsWith(GLOSSARY, close + 2);
            return linked ? Optional.empty() : Optional.of(line.strip().length() > 100 ? line.strip().substring(0, 100) + "…" : line.strip());
        }
        return Optional.empty();
    }

    /** @return whether {@code words} are used outside code, comments and headings */
    static boolean usedInText(String markdown, String words) {
        return Prose.withoutFencesAndComments(markdown).lines().filter(l -> !l.startsWith("#")).anyMatch(l -> firstOutsideInlineCode(l, words) >= 0);
    }

    /** The first index of {@code words} in {@code line}, not counting a code span unless it is a link's text. */
    private static int firstOutsideInlineCode(String line, String words) {
        int from = 0;
        while (true) {
            int at = line.indexOf(words, from);
            if (at < 0) {
                return -1;
            }
            int ticksBefore = (int) line.substring(0, at).chars().filter(c -> c == '`').count();
            boolean inCode = ticksBefore % 2 == 1;
            boolean linkText = inCode && line.lastIndexOf("[`", at) >= 0 && line.lastIndexOf("[`", at) > line.lastIndexOf(']', at);
            if (!inCode || linkText) {
                return at;
            }
            from = at + words.length();
        }
    }
}

package archlab.book;

import java.util.regex.Pattern;

/** A page's prose, as the book's length and glossary checks read it: without fenced code blocks and HTML comments (the markers). */
final class Prose {

    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
    private static final Pattern COMMENT = Pattern.compile("(?s)<!--.*?-->");

    private Prose() {
    }

    /** @return {@code markdown} without its fenced code blocks and its comments */
    static String withoutFencesAndComments(String markdown) {
        return COMMENT.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
    }
}

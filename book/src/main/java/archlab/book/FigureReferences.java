package archlab.book;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which files of {@code book/figures/} the book's pages show or link to: an image {@code ![…](figures/x.png)} or a
 * link {@code […](figures/x.html)}. Two traps: a figure that no page references is a file nobody reads (and a
 * refresh keeps drawing it), and a reference to a figure that is not there is a broken picture in the chapter.
 * {@link #problems} lists both; {@link #referenced} is what the refresh draws ({@code archlab.figures.Figures}
 * renders only the files it names).
 *
 * <p>Thread-safety: stateless.
 */
public final class FigureReferences {

    private static final Pattern LINK = Pattern.compile("\\]\\(figures/([A-Za-z0-9._-]+)\\)");

    private FigureReferences() {
    }

    /** @return the file names under {@code figures/} that the pages link to, sorted */
    public static Set<String> referenced(List<Path> pages) {
        Set<String> names = new TreeSet<>();
        for (Path page : pages) {
            Matcher m = LINK.matcher(read(page));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** @return the file names under {@code <root>/book/figures/} that the book's pages link to */
    public static Set<String> referenced(Path root) {
        return referenced(new BookSync(root).chapters());
    }

    /**
     * @param pages   the book's pages
     * @param figures the figures folder (may be missing: then every reference is a problem)
     * @return one line per referenced figure that is missing and per figure file that no page references
     */
    public static List<String> problems(List<Path> pages, Path figures) {
        List<String> problems = new ArrayList<>();
        Set<String> present = new TreeSet<>();
        if (Files.isDirectory(figures)) {
            try (Stream<Path> files = Files.list(figures)) {
                files.filter(Files::isRegularFile).forEach(f -> present.add(f.getFileName().toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + figures, e);
            }
        }
        for (Path page : pages) {
            Matcher m = LINK.matcher(read(page));
            while (m.find()) {
                if (!present.contains(m.group(1))) {
                    problems.add(page.getFileName() + ": figures/" + m.group(1) + " does not exist (run book/refresh.sh)");
                }
            }
        }
        Set<String> used = referenced(pages);
        for (String f : present) {
            if (!used.contains(f)) {
                problems.add("figures/" + f + " is referenced by no page under book/: show it in a chapter or delete it");
            }
        }
        return problems;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}

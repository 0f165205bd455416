package archlab.book;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
import org.commonmark.ext.heading.anchor.IdGenerator;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * The book as pages a reader opens offline: every chapter, appendix and the guide rendered from their Markdown by
 * CommonMark with GitHub's tables and heading ids (commonmark-java), in reading order, with a table of contents
 * ({@code index.html}) listing each page and its sections. Figures and flame graphs are copied beside the pages, so the
 * folder opens without a network and without the repository; a link to another page of the book goes to its
 * {@code .html}, a link to any other file of the repository to that file in the clone the pages were written from.
 *
 * <p>The trap it guards: a book read only as Markdown source, where a broken table or a visible marker goes unseen
 * until a reader opens it on GitHub. Each page carries a small script that marks on {@code <body>} what a browser
 * shows — images that did not load, marker text left visible, tables drawn — for the browser test to read.
 *
 * <p>{@code mvn -pl book test -Dbook.html} writes {@code book/target/html/}. Not thread-safe: one writer at a time.
 */
public final class BookHtml {

    /** The pages in reading order, by file name under {@code book/}; appendices not named here follow, sorted. */
    static final List<String> FIRST = List.of("12-1-baseline.md", "12-2-cache-outbox-ratelimit.md", "12-3-fault-scenarios.md");
    /** The pages that close the book, in this order. */
    static final List<String> LAST = List.of("appendix-glossary.md", "appendix-claims.md", "guide.md", "carried-forward.md");

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create(), HeadingAnchorExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).build();
    private static final Pattern PAGE_LINK = Pattern.compile("^([A-Za-z0-9._-]+)\\.md(#.*)?$");
    private static final Pattern EXTERNAL = Pattern.compile("^([a-z][a-z0-9+.-]*:|#)");

    /** What the written book holds: its folder and the pages in reading order. */
    public record Written(Path dir, List<Page> pages) {
        /** @return the table of contents */
        public Path index() {
            return dir.resolve("index.html");
        }
    }

    /**
     * One page: its source, the HTML file written, its title (the first heading) and its sections (level-2 headings,
     * each with the id a link to it uses).
     */
    public record Page(String source, String html, String title, List<Map.Entry<String, String>> sections) {
    }

    private BookHtml() {
    }

    /**
     * Writes the book's pages under {@code out} (created; emptied of the pages and figures it held).
     *
     * @param book the {@code book/} folder of a clone
     * @param out  where the pages go
     * @return the pages written, in reading order
     */
    public static Written write(Path book, Path out) throws IOException {
        Files.createDirectories(out);
        try (Stream<Path> old = Files.list(out)) {
            for (Path f : old.filter(p -> p.getFileName().toString().endsWith(".html")).toList()) {
                Files.delete(f);
            }
        }
        Path figures = out.resolve("figures");
        if (Files.isDirectory(figures)) {
            try (Stream<Path> old = Files.list(figures)) {
                for (Path f : old.toList()) {
                    Files.delete(f);
                }
            }
        }
        List<Page> pages = new ArrayList<>();
        List<String> order = readingOrder(book);
        for (String name : order) {
            pages.add(page(book, out, name, java.util.Set.copyOf(order)));
        }
        Files.writeString(out.resolve("index.html"), index(pages), StandardCharsets.UTF_8);
        copyFigures(book.resolve("figures"), out.resolve("figures"));
        return new Written(out, List.copyOf(pages));
    }

    /** @return the book's pages, by file name, in reading order */
    static List<String> readingOrder(Path book) throws IOException {
        List<String> all;
        try (Stream<Path> md = Files.list(book)) {
            all = md.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md")).sorted().toList();
        }
        List<String> order = new ArrayList<>(FIRST.stream().filter(all::contains).toList());
        all.stream().filter(n -> n.startsWith("appendix-") && !LAST.contains(n)).forEach(order::add);
        LAST.stream().filter(all::contains).forEach(order::add);
        return order;
    }

    private static Page page(Path book, Path out, String name, java.util.Set<String> written) throws IOException {
        Node document = PARSER.parse(Files.readString(book.resolve(name), StandardCharsets.UTF_8));
        Path sourceRoot = out.toAbsolutePath().relativize(book.toAbsolutePath());
        List<String> headings = new ArrayList<>();
        List<Map.Entry<String, String>> sections = new ArrayList<>();
        IdGenerator ids = IdGenerator.builder().build(); // as HeadingAnchorExtension numbers this page's headings
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                link.setDestination(destination(link.getDestination(), sourceRoot, written));
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                image.setDestination(destination(image.getDestination(), sourceRoot, written));
                visitChildren(image);
            }

            @Override
            public void visit(Heading heading) {
                String text = text(heading);
                headings.add(text);
                String id = ids.generateId(text.trim().toLowerCase(java.util.Locale.ROOT)); // as the heading-anchor extension does
                if (heading.getLevel() == 2) {
                    sections.add(Map.entry(text, id));
                }
                visitChildren(heading);
            }
        });
        String title = headings.isEmpty() ? name : headings.get(0);
        String html = name.replaceFirst("\\.md$", ".html");
        Files.writeString(out.resolve(html), frame(title, RENDERER.render(document)), StandardCharsets.UTF_8);
        return new Page(name, html, title, List.copyOf(sections));
    }

    /**
     * Where a link of a page goes in the written book: another page's {@code .html} (anchor kept), a figure beside the
     * pages, a web address or an anchor as it is, any other file of the clone by its path from the written folder.
     */
    static String destination(String link, Path sourceRoot, java.util.Set<String> written) {
        Matcher page = PAGE_LINK.matcher(link);
        if (page.matches() && written.contains(page.group(1) + ".md")) {
            return page.group(1) + ".html" + (page.group(2) == null ? "" : page.group(2));
        }
        if (EXTERNAL.matcher(link).find() || link.startsWith("figures/")) {
            return link;
        }
        return sourceRoot.resolve(link).normalize().toString().replace('\\', '/');
    }

    private static String text(Node node) {
        StringBuilder sb = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                sb.append(text.getLiteral());
            }

            @Override
            public void visit(org.commonmark.node.Code code) {
                sb.append(code.getLiteral());
            }
        });
        return sb.toString();
    }

    private static String index(List<Page> pages) {
        StringBuilder toc = new StringBuilder("<h1>后端架构设计 · 第 12 章：高性能与高可用（实验版）</h1>\n<nav class=\"toc\"><ol>\n");
        for (Page p : pages) {
            toc.append("<li><a href=\"").append(p.html()).append("\">").append(escape(p.title())).append("</a>");
            if (!p.sections().isEmpty()) {
                toc.append("\n<ol>");
                p.sections().forEach(s -> toc.append("<li><a href=\"").append(p.html()).append('#').append(s.getValue()).append("\">")
                        .append(escape(s.getKey())).append("</a></li>"));
                toc.append("</ol>");
            }
            toc.append("</li>\n");
        }
        return frame("目录", toc.append("</ol></nav>\n").toString());
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A page around {@code body}: its title, the book's style, a way back to the contents, the browser test's marks. */
    private static String frame(String title, String body) {
        return """
                <!DOCTYPE html>
                <html lang="zh-CN"><head><meta charset="utf-8"><title>%s</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <style>
                body{max-width:52rem;margin:2rem auto;padding:0 1rem;font:16px/1.7 system-ui,"Noto Sans CJK SC",sans-serif;color:#222}
                pre{background:#f6f8fa;padding:.8rem;overflow-x:auto;font-size:13px;line-height:1.45}
                code{font-family:ui-monospace,monospace;font-size:90%%}
                table{border-collapse:collapse;margin:1rem 0;display:block;overflow-x:auto}
                th,td{border:1px solid #d0d7de;padding:.3rem .6rem}
                img{max-width:100%%}
                blockquote{border-left:4px solid #d0d7de;margin-left:0;padding-left:1rem;color:#555}
                nav.top{font-size:14px;margin-bottom:1rem}
                </style></head>
                <body><nav class="top"><a href="index.html">目录</a></nav>
                %s
                <script>
                // what a reader sees, marked for the browser test: images not loaded, marker text left visible, tables
                window.addEventListener('load', function () {
                  var broken = Array.prototype.filter.call(document.images, function (i) { return !i.complete || i.naturalWidth === 0; });
                  var shown = document.body.cloneNode(true); // code shows what it quotes: markers in code are meant to be seen
                  Array.prototype.forEach.call(shown.querySelectorAll('pre, code, script, style'), function (e) { e.remove(); });
                  var text = shown.textContent;
                  document.body.setAttribute('data-images', String(document.images.length));
                  document.body.setAttribute('data-images-broken', broken.map(function (i) { return i.getAttribute('src'); }).join(' '));
                  document.body.setAttribute('data-marker-text', String(text.indexOf('<!--') >= 0 || text.indexOf('-->') >= 0));
                  document.body.setAttribute('data-tables', String(document.querySelectorAll('table').length));
                });
                </script>
                </body></html>
                """.formatted(escape(title), body);
    }

    private static void copyFigures(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                try {
                    Files.copy(f, to.resolve(f.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                    throw new UncheckedIOException("could not copy figure " + f, e);
                }
            });
        }
    }
}

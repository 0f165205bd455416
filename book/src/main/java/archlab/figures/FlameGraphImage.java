package archlab.figures;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * A flame graph as a picture for the page. The trap it avoids: a flame graph in HTML is read by clicking and zooming,
 * and a printed page shows nothing of it, so a chapter that only links one asks its reader to trust the sentence.
 *
 * <p>{@link #render} reads the HTML flame graph that async-profiler's converter wrote (its own parser,
 * {@link FlameGraph#parseHtml}, gives the stacks back as collapsed lines: {@code root;…;leaf weight}) and draws the
 * same stacks root at the bottom, each frame as wide as its share of the total weight, siblings in the converter's
 * order. Frames narrower than {@value #NARROWEST_FRAME_PX} pixel are left out; a name is shortened to its class and
 * method, then cut, to fit its frame. Colours tell whose code a frame is: the lab's ({@code archlab.}), the JDK's
 * ({@code java.}, {@code jdk.}, {@code sun.}), a library's, or native.
 *
 * <p>Stateless; thread-safe (every call draws its own image).
 */
public final class FlameGraphImage {

    /** The image's width in pixels; the frames share it by weight. */
    static final int WIDTH_PX = 1200;
    /** The height of one stack level in pixels. */
    static final int FRAME_PX = 17;
    /** A frame narrower than this many pixels is not drawn (its weight still counts in its parent's width). */
    static final double NARROWEST_FRAME_PX = 1.0;
    private static final int HEADER_PX = 58;
    private static final Pattern TITLE = Pattern.compile("<h1>(.*?)</h1>");

    /** Whose code a frame is, by its name; each kind is drawn in its own colour. */
    enum Owner {
        LAB("the lab's code (archlab.)", new Color(0xE6, 0x9F, 0x00)),
        JDK("the JDK (java., jdk., sun.)", new Color(0x8C, 0xC8, 0x7A)),
        LIBRARY("libraries", new Color(0x7F, 0xB8, 0xE0)),
        ALLOCATED("the class allocated (allocation graphs)", new Color(0xC9, 0xA7, 0xE8)),
        NATIVE("native, or no stack", new Color(0xE0, 0x7A, 0x6E));

        final String label;
        final Color colour;

        Owner(String label, Color colour) {
            this.label = label;
            this.colour = colour;
        }

        /** @param frame a frame as the converter writes it: dots or slashes, maybe a type suffix such as {@code _[k]} */
        static Owner of(String frame) {
            if (frame.endsWith("_[k]")) {
                return ALLOCATED; // the converter's mark for the allocated class of an allocation sample
            }
            String name = plain(frame);
            if (name.startsWith("archlab.")) {
                return LAB;
            }
            if (name.startsWith("java.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
                return JDK;
            }
            return name.contains(".") && !name.startsWith("(") ? LIBRARY : NATIVE;
        }
    }

    /**
     * A frame's name without the converter's type suffix ({@code _[j]}, {@code _[k]}, …) and without a hidden class's
     * address ({@code LambdaForm$DMH/0x…}), with dots for slashes.
     */
    static String plain(String frame) {
        String name = frame.matches(".*_\\[.\\]$") ? frame.substring(0, frame.length() - 4) : frame;
        return name.replaceAll("/0x\\p{XDigit}+", "").replace('/', '.'); // a hidden class's address says nothing
    }

    /** One frame of the merged stacks: its name, its weight (its own and its callees'), its callees in order. */
    record Frame(String name, long weight, List<Frame> callees) {
    }

    private FlameGraphImage() {
    }

    /**
     * Draws the flame graph of {@code html} into {@code png}.
     *
     * @param html a flame graph written by async-profiler's converter ({@code archlab.profile.FlameGraphs})
     * @param png  the file to write (parent folders created)
     * @return {@code png}
     * @throws IllegalArgumentException if {@code html} is not a flame graph the converter wrote, or holds no stack
     * @throws UncheckedIOException     if a file cannot be read or written
     */
    public static Path render(Path html, Path png) {
        ChartImages.headless();
        String page = read(html);
        Frame root = merge(collapsed(page));
        if (root.weight() == 0) {
            throw new IllegalArgumentException(html + " holds no stack: nothing to draw");
        }
        Matcher title = TITLE.matcher(page);
        return ChartImages.writePng(draw(root, title.find() ? unescape(title.group(1)) : html.getFileName().toString()), png);
    }

    /** The stacks of an HTML flame graph as collapsed lines ({@code root;…;leaf weight}), by the converter's parser. */
    static List<String> collapsed(String html) {
        Arguments args = new Arguments();
        args.output = "collapsed";
        FlameGraph graph = new FlameGraph(args);
        try (Reader in = new java.io.StringReader(html)) {
            graph.parseHtml(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) { // a page the converter did not write: its parser fails on what it cannot find
            throw new IllegalArgumentException("not a flame graph written by async-profiler's converter: " + e, e);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            graph.dump(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }

    /** Merges collapsed lines into one tree under a root named "all"; lines without a weight are refused. */
    static Frame merge(List<String> collapsedLines) {
        Node root = new Node("all");
        for (String line : collapsedLines) {
            int space = line.lastIndexOf(' ');
            long weight;
            try {
                weight = Long.parseLong(line.substring(space + 1).strip());
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("not a collapsed stack (frames, a space, a weight): " + line, e);
            }
            Node at = root;
            at.weight += weight;
            for (String f : line.substring(0, space).split(";")) {
                at = at.callees.computeIfAbsent(f, Node::new);
                at.weight += weight;
            }
        }
        return root.frame();
    }

    /** A frame while stacks are being merged. Not thread-safe; lives in one call of {@link #merge}. */
    private static final class Node {
        final String name;
        long weight;
        final Map<String, Node> callees = new LinkedHashMap<>();

        Node(String name) {
            this.name = name;
        }

        Frame frame() {
            List<Frame> out = new ArrayList<>();
            callees.values().forEach(n -> out.add(n.frame()));
            return new Frame(name, weight, List.copyOf(out));
        }
    }

    /** @return the deepest level at which some frame is at least {@value #NARROWEST_FRAME_PX} pixel wide (root: 0) */
    static int depth(Frame root) {
        return depth(root, WIDTH_PX / (double) root.weight(), 0);
    }

    private static int depth(Frame f, double pxPerWeight, int level) {
        int deepest = level;
        for (Frame c : f.callees()) {
            if (c.weight() * pxPerWeight >= NARROWEST_FRAME_PX) {
                deepest = Math.max(deepest, depth(c, pxPerWeight, level + 1));
            }
        }
        return deepest;
    }

    static BufferedImage draw(Frame root, String title) {
        int levels = depth(root) + 1;
        int height = HEADER_PX + levels * FRAME_PX + 6;
        BufferedImage image = new BufferedImage(WIDTH_PX, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH_PX, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            g.drawString(fitted(g.getFontMetrics(), title, WIDTH_PX - 16), 8, 20);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            int x = 8;
            for (Owner o : Owner.values()) {
                g.setColor(o.colour);
                g.fillRect(x, 32, 14, 12);
                g.setColor(Color.BLACK);
                g.drawString(o.label, x + 18, 43);
                x += 26 + g.getFontMetrics().stringWidth(o.label);
            }
            g.drawString("width = share of the total weight; root at the bottom", x + 12, 43);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            frame(g, root, 0, WIDTH_PX / (double) root.weight(), height - 3 - FRAME_PX, 0);
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void frame(Graphics2D g, Frame f, double x, double pxPerWeight, int y, int level) {
        double width = f.weight() * pxPerWeight;
        if (width < NARROWEST_FRAME_PX) {
            return;
        }
        int left = (int) Math.round(x);
        int w = Math.max(1, (int) Math.round(x + width) - left);
        g.setColor(level == 0 ? new Color(0xC8, 0xC8, 0xC8) : Owner.of(f.name()).colour);
        g.fillRect(left, y, w, FRAME_PX - 1);
        if (w > 24) {
            String label = fitted(g.getFontMetrics(), shortName(f.name()), w - 6);
            if (!label.isEmpty()) {
                g.setColor(Color.BLACK);
                g.drawString(label, left + 3, y + FRAME_PX - 5);
            }
        }
        double at = x;
        for (Frame c : f.callees()) {
            frame(g, c, at, pxPerWeight, y - FRAME_PX, level + 1);
            at += c.weight() * pxPerWeight;
        }
    }

    /** {@code a.b.Class.method} → {@code Class.method}, an allocated class {@code a.b.Type[]} → {@code Type[]}; a name
     * without a package as it is; the type suffix left out. */
    static String shortName(String frame) {
        String name = plain(frame);
        if (Owner.of(frame) == Owner.ALLOCATED) {
            return name.substring(name.lastIndexOf('.') + 1); // a class: java.lang.Long → Long
        }
        int paren = name.indexOf('(');
        String head = paren >= 0 ? name.substring(0, paren) : name;
        int method = head.lastIndexOf('.');
        if (method <= 0) {
            return name;
        }
        int cls = head.lastIndexOf('.', method - 1);
        return name.substring(cls + 1);
    }

    /** {@code text}, cut with an ellipsis to fit {@code widthPx}; empty when not even three characters fit. */
    static String fitted(FontMetrics fm, String text, int widthPx) {
        if (fm.stringWidth(text) <= widthPx) {
            return text;
        }
        for (int n = text.length() - 1; n >= 3; n--) {
            String cut = text.substring(0, n) + "…";
            if (fm.stringWidth(cut) <= widthPx) {
                return cut;
            }
        }
        return "";
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}

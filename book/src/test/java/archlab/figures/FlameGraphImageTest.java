package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;
import one.convert.Frame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flame graph's picture: the converter's stacks, merged, drawn by weight, coloured by whose code a frame is. */
class FlameGraphImageTest {

    /** A flame graph page as async-profiler's converter writes it: each stack root first, with its weight. */
    private static Path page(Path file, String title, List<List<String>> stacks, List<Long> weights) throws Exception {
        FlameGraph graph = new FlameGraph(new Arguments("--title", title));
        for (int i = 0; i < stacks.size(); i++) {
            CallStack stack = new CallStack();
            stacks.get(i).forEach(f -> stack.push(f, Frame.TYPE_JIT_COMPILED));
            graph.addSample(stack, weights.get(i));
        }
        try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            graph.dump(ps);
        }
        return file;
    }

    @Test
    @DisplayName("stacks read back from the converter's HTML merge into one tree: shared callers once, each frame weighing its callees' sum")
    void stacksMerge(@TempDir Path dir) throws Exception {
        Path html = page(dir.resolve("f.html"), "t", List.of(
                List.of("java.lang.Thread.run", "archlab.order.OrderService.pay", "archlab.order.ProfiledLock.lock"),
                List.of("java.lang.Thread.run", "archlab.order.OrderService.get")), List.of(300L, 100L));

        FlameGraphImage.Frame root = FlameGraphImage.merge(FlameGraphImage.collapsed(Files.readString(html)));

        assertThat(root.weight()).isEqualTo(400);
        assertThat(root.callees()).hasSize(1);
        FlameGraphImage.Frame run = root.callees().getFirst();
        assertThat(FlameGraphImage.plain(run.name())).isEqualTo("java.lang.Thread.run");
        assertThat(run.callees()).extracting(FlameGraphImage.Frame::weight).containsExactlyInAnyOrder(300L, 100L);
        assertThat(FlameGraphImage.depth(root)).isEqualTo(3);
    }

    @Test
    @DisplayName("a frame is coloured by whose code it is: the lab's, the JDK's (dots or slashes), a library's, the allocated class, native")
    void owners() {
        assertThat(FlameGraphImage.Owner.of("archlab.order.OrderService.pay_[j]")).isEqualTo(FlameGraphImage.Owner.LAB);
        assertThat(FlameGraphImage.Owner.of("java/lang/invoke/CallSite.makeSite")).isEqualTo(FlameGraphImage.Owner.JDK);
        assertThat(FlameGraphImage.Owner.of("com.fasterxml.jackson.core.util.BufferRecycler.balloc")).isEqualTo(FlameGraphImage.Owner.LIBRARY);
        assertThat(FlameGraphImage.Owner.of("byte[]_[k]")).isEqualTo(FlameGraphImage.Owner.ALLOCATED);
        assertThat(FlameGraphImage.Owner.of("(no stack trace)")).isEqualTo(FlameGraphImage.Owner.NATIVE);
        assertThat(FlameGraphImage.shortName("java/lang/invoke/LambdaForm$DMH/0x000000003f108400.invokeVirtual"))
                .isEqualTo("LambdaForm$DMH.invokeVirtual");
        assertThat(FlameGraphImage.shortName("java.lang.Long_[k]")).isEqualTo("Long");
        assertThat(FlameGraphImage.shortName("archlab.order.OrderService.pay")).isEqualTo("OrderService.pay");
    }

    @Test
    @DisplayName("the picture draws each frame as wide as its share, root at the bottom, in its owner's colour; a frame too narrow is left out")
    void framesAreDrawnByWeight(@TempDir Path dir) throws Exception {
        List<List<String>> stacks = new ArrayList<>();
        stacks.add(List.of("java.lang.Thread.run", "archlab.order.OrderService.pay"));
        stacks.add(List.of("java.lang.Thread.run", "com.example.Tiny.call"));
        Path html = page(dir.resolve("f.html"), "ch12-x / baseline: lock wait", stacks, List.of(1_999L, 1L)); // the tiny frame: 0.6 px at the right end

        BufferedImage image = Pngs.assertPng(FlameGraphImage.render(html, dir.resolve("f.png")), 1200, 100);

        int rowOf1 = image.getHeight() - 3 - 2 * FlameGraphImage.FRAME_PX + 2; // level 1: Thread.run
        int rowOf2 = rowOf1 - FlameGraphImage.FRAME_PX;                          // level 2: the callees
        assertThat(image.getRGB(1100, rowOf1)).isEqualTo(FlameGraphImage.Owner.JDK.colour.getRGB());
        assertThat(image.getRGB(1100, rowOf2)).as("pay is the whole width, less nothing visible")
                .isEqualTo(FlameGraphImage.Owner.LAB.colour.getRGB());
        assertThat(image.getRGB(1199, rowOf2)).as("the tiny library frame is narrower than a pixel: not drawn")
                .isEqualTo(java.awt.Color.WHITE.getRGB());
    }

    @Test
    @DisplayName("a page with no stack is refused, naming the file, never drawn as an empty picture")
    void emptyGraphIsRefused(@TempDir Path dir) throws Exception {
        Path html = page(dir.resolve("empty.html"), "nothing", List.of(), List.of());
        assertThatThrownBy(() -> FlameGraphImage.render(html, dir.resolve("empty.png")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty.html");
        assertThat(dir.resolve("empty.png")).doesNotExist();
    }

    @Test
    @DisplayName("Figures draws a flame graph's picture beside its HTML when a page links the picture")
    void figuresDrawTheFlameGraphPicture(@TempDir Path dir) throws Exception {
        Path figures = Files.createDirectories(dir.resolve("figures"));
        page(figures.resolve("flame-m-baseline-lock.html"), "m / baseline: lock wait",
                List.of(List.of("java.lang.Thread.run", "archlab.order.OrderService.pay")), List.of(10L));
        List<String> out = new ArrayList<>();

        List<Path> written = Figures.run(Files.createDirectories(dir.resolve("results")), figures, out::add,
                java.util.Set.of("flame-m-baseline-lock.png")::contains);

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactly("flame-m-baseline-lock.png");
        Pngs.assertPng(figures.resolve("flame-m-baseline-lock.png"), 1200, 60);
    }
}

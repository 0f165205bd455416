package archlab.figures;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Turns XChart charts into PNG files without a display: a chart alone, or several stacked into one image.
 * Forces {@code java.awt.headless=true} unless the caller set it, before any AWT class initialises.
 *
 * <p>Stateless; thread-safe as far as XChart's own painting is (one chart painted by one thread at a time).
 */
final class ChartImages {

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartImages() {
    }

    /** Makes sure headless mode is chosen before the first chart is built (the static block runs on first use). */
    static void headless() {
        // the static initialiser did the work
    }

    /** @return {@code chart} painted at its own size */
    static BufferedImage image(Chart<?, ?> chart) {
        return BitmapEncoder.getBufferedImage(chart);
    }

    /** @return the images one below the other, left-aligned on white, as wide as the widest */
    static BufferedImage stack(List<BufferedImage> parts) {
        int width = parts.stream().mapToInt(BufferedImage::getWidth).max().orElseThrow();
        int height = parts.stream().mapToInt(BufferedImage::getHeight).sum();
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            int y = 0;
            for (BufferedImage p : parts) {
                g.drawImage(p, 0, y, null);
                y += p.getHeight();
            }
        } finally {
            g.dispose();
        }
        return out;
    }

    /** Writes {@code image} as a PNG to {@code file} (parent folders created) and returns {@code file}. */
    static Path writePng(BufferedImage image, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (!ImageIO.write(image, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer in this JVM");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Writes {@code chart} as a PNG to {@code file}. */
    static Path writePng(Chart<?, ?> chart, Path file) {
        return writePng(image(chart), file);
    }
}

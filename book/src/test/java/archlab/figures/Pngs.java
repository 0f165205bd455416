package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Checks that a file is a real, sensibly sized PNG. */
final class Pngs {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private Pngs() {
    }

    /** Asserts {@code png} is a PNG that decodes to at least {@code minWidth} × {@code minHeight}; returns it. */
    static BufferedImage assertPng(Path png, int minWidth, int minHeight) {
        try {
            assertThat(png).exists().isRegularFile();
            byte[] head = new byte[SIGNATURE.length];
            try (var in = Files.newInputStream(png)) {
                assertThat(in.read(head)).isEqualTo(SIGNATURE.length);
            }
            assertThat(head).as("PNG signature").containsExactly(SIGNATURE);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image).as("ImageIO decodes " + png).isNotNull();
            assertThat(image.getWidth()).isGreaterThanOrEqualTo(minWidth);
            assertThat(image.getHeight()).isGreaterThanOrEqualTo(minHeight);
            return image;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

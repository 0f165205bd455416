package archlab.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a server script ({@code .servers/postgres.sh}, {@code .servers/redis.sh}) writes the URL of the server it started:
 * a file under the repository's {@code target/servers/}, found from a module's folder upwards (its URL, and the path of
 * its log: {@code log.path}).
 *
 * <p>Thread-safety: stateless.
 */
public final class ServerUrlFile {

    private ServerUrlFile() {
    }

    /**
     * @param from     where to start looking: a module's folder, or the working directory
     * @param relative the file's path under the repository's root, e.g. {@code target/servers/redis/redis.url}
     * @return the file in the nearest folder at or above {@code from} that has {@code .servers/}, when it exists there
     */
    public static Optional<Path> find(Path from, String relative) {
        for (Path dir = from.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".servers"))) {
                Path file = dir.resolve(relative);
                return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** @return the file's first line, trimmed; empty when blank */
    public static Optional<String> read(Path file) {
        try {
            String url = Files.readString(file).trim();
            return url.isEmpty() ? Optional.empty() : Optional.of(url);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}

package archlab.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server killed with SIGKILL leaves its Tomcat scratch directory; the next server to start on the machine removes it. */
class ScratchSweepTest {

    @Test
    @DisplayName("a scratch directory whose process is gone is deleted, one of a live process and anything not named as a scratch directory are kept")
    void deadProcessesLeftoversAreSwept(@TempDir Path tmp) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path dead = Files.createDirectories(tmp.resolve(LoopbackTomcat.SCRATCH_PREFIX + gone.pid() + "-123/work/Tomcat"));
        Files.writeString(dead.resolve("x.ser"), "left by a killed server");
        Path live = Files.createDirectories(tmp.resolve(LoopbackTomcat.SCRATCH_PREFIX + ProcessHandle.current().pid() + "-456"));
        Path other = Files.createDirectories(tmp.resolve("archlab-tomcat-not-a-pid"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "not a scratch directory");
        Path link = tmp.resolve(LoopbackTomcat.SCRATCH_PREFIX + gone.pid() + "-789");
        Files.createSymbolicLink(link, outside);

        LoopbackTomcat.sweepLeftovers(tmp);

        assertThat(tmp.resolve(LoopbackTomcat.SCRATCH_PREFIX + gone.pid() + "-123")).doesNotExist();
        assertThat(live).exists();
        assertThat(other).exists();
        assertThat(outside.resolve("keep.txt")).as("a link is not followed").exists();
    }
}

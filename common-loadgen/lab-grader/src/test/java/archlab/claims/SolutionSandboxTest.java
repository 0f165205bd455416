package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sandbox of this JVM as it is on the machine that runs the test: a uid of its own when the grader is root and
 * setpriv and prlimit are installed, the grader's own user otherwise. Either way the command prefix, the scorecard's
 * line and the home folder must agree with it.
 */
class SolutionSandboxTest {

    @Test
    @DisplayName("the sandbox's prefix and description agree with who the student's process runs as: a uid of its own, or the grader's user")
    void prefixAndDescriptionAgree() {
        SolutionSandbox sandbox = SolutionSandbox.current();
        assertThat(SolutionSandbox.current()).as("built once per JVM").isSameAs(sandbox);
        if (sandbox.separateUser()) {
            int uid = sandbox.uid();
            assertThat(uid).isBetween(SolutionSandbox.FIRST_UID, SolutionSandbox.FIRST_UID + 9_999).isLessThan(61_184);
            assertThat(sandbox.prefix()).containsExactly("/usr/bin/prlimit", "--nproc=" + SolutionSandbox.MAX_TASKS, "--nofile=4096",
                    "--core=0", "--", "/usr/bin/setsid", "/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
                    "--no-new-privs", "--pdeathsig=KILL");
            assertThat(sandbox.describe()).contains("under uid " + uid, "at most " + SolutionSandbox.MAX_TASKS + " threads")
                    .doesNotContain("grader's own user");
        } else {
            assertThat(sandbox.uid()).isEqualTo(-1);
            assertThat(sandbox.prefix()).isEmpty();
            assertThat(sandbox.processesOfUid()).isEmpty();
            assertThat(sandbox.describe()).contains("as the grader's own user").doesNotContain("under uid");
        }
    }

    @Test
    @DisplayName("a student process's home is a fresh folder only its user may enter (mode 700), owned by the sandbox's uid when it has one")
    void homeIsItsOwn() throws Exception {
        SolutionSandbox sandbox = SolutionSandbox.current();
        Path home = sandbox.newHome();
        Path other = sandbox.newHome();
        assertThat(home).isDirectory().isNotEqualTo(other);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home))).isEqualTo("rwx------");
        if (sandbox.separateUser()) {
            assertThat(Files.getAttribute(home, "unix:uid")).isEqualTo(sandbox.uid());
            assertThat(Files.getAttribute(home, "unix:gid")).isEqualTo(sandbox.uid());
        }
    }
}

package archlab.order;

import archlab.run.LabProperties;
import archlab.serve.ServeSettings;
import archlab.serve.ServedCheckpoint;
import archlab.serve.ServedProcess;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * This checkpoint served over HTTP on its own, with the book's downstream behind it ({@link BookLab}): the main any JVM
 * can start ({@code archlab.serve.ServedProcess} starts it as a child), and the reader's
 * {@code mvn -pl <module> test -Dserve}, which runs that main in a JVM of its own and echoes what it prints. The same
 * file in every checkpoint: what is served is this module's {@code BookLab}.
 */
@EnabledIfSystemProperty(named = "serve", matches = ".*", disabledReason = "serves until stopped: mvn -pl <module> test -Dserve")
public final class Serve {

    /** Serves this checkpoint in this JVM until SIGTERM or Ctrl-C ({@code -Dlab.serve.port}, {@code -Dlab.server.threads}, {@code -Dlab.serve.seconds}). */
    public static void main(String[] args) {
        ServedCheckpoint.main(BookLab::new);
    }

    @Test
    @DisplayName("serves this checkpoint on 127.0.0.1 in a JVM of its own until it is stopped (kill PID, Ctrl-C) or -Dlab.serve.seconds pass")
    void untilStopped() throws InterruptedException {
        ServedProcess.untilStopped(Serve.class, ServeSettings.from(LabProperties.fromSystem()), System.out);
    }
}

package archlab.compare;

import java.nio.file.Path;

/**
 * The Maven session a test of the book module runs in, and where the project's modules are. The root POM gives
 * every module of one {@code mvn} invocation the same {@code archlab.session}, so the tables below read exactly
 * the reports this invocation's checkpoints wrote.
 */
final class ThisSession {

    private ThisSession() {
    }

    /** @return the project root: the folder holding {@code book/} and the checkpoint modules */
    static Path root() {
        return Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize().getParent();
    }

    /** @return this invocation's session id */
    static String id() {
        return System.getProperty("archlab.session", "adhoc");
    }

    /** @return the root's {@code target/reports/}, where the cross-checkpoint tables are saved */
    static Path rootReports() {
        return root().resolve("target").resolve("reports");
    }
}

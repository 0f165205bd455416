package archlab.report;

import java.time.Instant;

/**
 * Where a run happened, printed with every report so that figures are never read out of context.
 *
 * @param jdk      {@code Runtime.version()}
 * @param vendor   {@code java.vendor}
 * @param cores    {@code Runtime.availableProcessors()}
 * @param os       os name, version and arch
 * @param maxHeapMiB the JVM's maximum heap, MiB
 * @param at       when the report was made (UTC)
 * @param session  the Maven session that ran it (system property {@code archlab.session}), "adhoc" outside Maven
 */
public record Environment(String jdk, String vendor, int cores, String os, long maxHeapMiB, String at, String session) {

    /** @return this JVM's environment, now */
    public static Environment current() {
        return new Environment(
                Runtime.version().toString(),
                System.getProperty("java.vendor", "?"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name", "?") + " " + System.getProperty("os.version", "") + " " + System.getProperty("os.arch", ""),
                Runtime.getRuntime().maxMemory() / (1024 * 1024),
                Instant.now().toString(),
                System.getProperty("archlab.session", "adhoc"));
    }
}

package archlab.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.Locale;

/**
 * Where a run happened, printed with every report so that figures are never read out of context.
 *
 * <p>JSON: the {@link Machine} is unwrapped, its figures lie before {@code at} and {@code session}.
 *
 * @param machine the JVM and the machine it ran on
 * @param at      when the report was made (UTC)
 * @param session the Maven session that ran it (system property {@code archlab.session}), "adhoc" outside Maven
 */
public record Environment(@JsonUnwrapped Machine machine, String at, String session) {

    /**
     * The JVM and the machine a run ran on.
     *
     * @param jdk        {@code Runtime.version()}
     * @param vendor     {@code java.vendor}
     * @param cores      {@code Runtime.availableProcessors()}
     * @param os         os name, version and arch
     * @param maxHeapMiB the JVM's maximum heap, MiB
     */
    public record Machine(String jdk, String vendor, int cores, String os, long maxHeapMiB) {

        /** @return this JVM's machine */
        public static Machine current() {
            return new Machine(
                    Runtime.version().toString(),
                    System.getProperty("java.vendor", "?"),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("os.name", "?") + " " + System.getProperty("os.version", "") + " "
                            + System.getProperty("os.arch", ""),
                    Runtime.getRuntime().maxMemory() / (1024 * 1024));
        }
    }

    /** @return this JVM's environment, now */
    public static Environment current() {
        return new Environment(Machine.current(), Instant.now().toString(), System.getProperty("archlab.session", "adhoc"));
    }

    /** @return the report line: {@code environment jdk=… vendor=… cores=… os=… max_heap=…MiB at=… session=…} */
    public String line() {
        return String.format(Locale.ROOT, "environment jdk=%s vendor=%s cores=%d os=%s max_heap=%dMiB at=%s session=%s",
                machine.jdk(), machine.vendor(), machine.cores(), machine.os().trim(), machine.maxHeapMiB(), at, session);
    }
}

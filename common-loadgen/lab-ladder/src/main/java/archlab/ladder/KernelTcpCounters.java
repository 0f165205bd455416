package archlab.ladder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the kernel's TCP stack did during a phase, from Linux's own counters ({@code /proc/net/snmp} and
 * {@code /proc/net/netstat}, machine-wide, so other traffic of the machine counts too): connections accepted
 * ({@code PassiveOpens}: a connection per request without keep-alive), the accept queue's overflows and drops
 * ({@code ListenOverflows}, {@code ListenDrops}: a connection the server's backlog had no room for), the ACKs the kernel
 * delayed and then sent on its timer ({@code DelayedACKs}), and segments sent again ({@code RetransSegs}).
 *
 * <p>{@link #read()} is empty where the files do not exist (not Linux). Immutable.
 *
 * @param passiveOpens    connections accepted
 * @param listenOverflows accept-queue overflows
 * @param listenDrops     connections dropped at listen
 * @param delayedAcks     ACKs sent when the delayed-ACK timer fired
 * @param retransmits     segments retransmitted
 */
public record KernelTcpCounters(long passiveOpens, long listenOverflows, long listenDrops, long delayedAcks,
                                long retransmits) {

    private static final Path SNMP = Path.of("/proc/net/snmp");
    private static final Path NETSTAT = Path.of("/proc/net/netstat");

    /** @return the counters now; empty when this machine has no such files or they cannot be read */
    public static Optional<KernelTcpCounters> read() {
        try {
            if (!Files.isReadable(SNMP) || !Files.isReadable(NETSTAT)) {
                return Optional.empty();
            }
            Map<String, Long> tcp = table(Files.readAllLines(SNMP), "Tcp:");
            Map<String, Long> ext = table(Files.readAllLines(NETSTAT), "TcpExt:");
            return Optional.of(new KernelTcpCounters(tcp.getOrDefault("PassiveOpens", 0L),
                    ext.getOrDefault("ListenOverflows", 0L), ext.getOrDefault("ListenDrops", 0L),
                    ext.getOrDefault("DelayedACKs", 0L), tcp.getOrDefault("RetransSegs", 0L)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** @return what changed from {@code before} to this */
    public KernelTcpCounters minus(KernelTcpCounters before) {
        return new KernelTcpCounters(passiveOpens - before.passiveOpens, listenOverflows - before.listenOverflows,
                listenDrops - before.listenDrops, delayedAcks - before.delayedAcks, retransmits - before.retransmits);
    }

    /** The two lines of a {@code prefix} table: names, then values. */
    static Map<String, Long> table(List<String> lines, String prefix) {
        Map<String, Long> values = new HashMap<>();
        String[] names = null;
        for (String line : lines) {
            if (!line.startsWith(prefix)) {
                continue;
            }
            String[] cells = line.trim().split("\\s+");
            if (names == null) {
                names = cells;
            } else {
                for (int i = 1; i < Math.min(names.length, cells.length); i++) {
                    values.put(names[i], Long.parseLong(cells[i]));
                }
                return values;
            }
        }
        return values;
    }
}

package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class KernelTcpCountersTest {

    @Test
    @DisplayName("a /proc/net table is read by the names of its first line, the values of its second; another table's lines are not")
    void readsATable() {
        List<String> snmp = List.of("Ip: Forwarding DefaultTTL", "Ip: 1 64",
                "Tcp: RtoAlgorithm RtoMin ActiveOpens PassiveOpens RetransSegs", "Tcp: 1 200 66245 65970 3544");
        assertThat(KernelTcpCounters.table(snmp, "Tcp:")).containsEntry("PassiveOpens", 65970L).containsEntry("RetransSegs", 3544L)
                .doesNotContainKey("DefaultTTL");
        assertThat(KernelTcpCounters.table(snmp, "Udp:")).isEmpty();
    }

    @Test
    @DisplayName("a phase's counters are the difference of two reads; on Linux the read is there")
    void difference() {
        KernelTcpCounters before = new KernelTcpCounters(10, 0, 0, 100, 5);
        KernelTcpCounters after = new KernelTcpCounters(1210, 0, 0, 1300, 5);
        assertThat(after.minus(before)).isEqualTo(new KernelTcpCounters(1200, 0, 0, 1200, 0));
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertThat(KernelTcpCounters.read()).isPresent();
        }
    }
}

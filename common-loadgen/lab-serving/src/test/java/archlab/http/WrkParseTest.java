package archlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** wrk's figures are read from the line book-mix.lua's done() prints, never retyped. */
class WrkParseTest {

    @Test
    @DisplayName("the WRK_JSON line gives requests/s, p50, p99 and max in ms, non-2xx and socket errors")
    void parsesTheScriptsLine() {
        String out = """
                Running 3s test @ http://127.0.0.1:4000
                  8 threads and 200 connections
                WRK_JSON {"requests":3000,"duration_us":3000000,"non_2xx":12,"errors_connect":1,"errors_read":2,\
                "errors_write":0,"errors_timeout":3,"p50_us":2500,"p99_us":210000,"max_us":400500,"mean_us":9000.5}
                """;
        Wrk.WrkResult r = Wrk.parse("wrk -t8", out);
        assertThat(r.requestsPerSecond()).isEqualTo(1000.0);
        assertThat(r.counts().non2xx()).isEqualTo(12);
        assertThat(r.counts().socketErrors()).isEqualTo(6);
        assertThat(r.latency().p50Millis()).isEqualTo(2.5);
        assertThat(r.latency().p99Millis()).isEqualTo(210.0);
        assertThat(r.latency().maxMillis()).isEqualTo(400.5);
        assertThat(r.commandLine()).isEqualTo("wrk -t8");
    }

    @Test
    @DisplayName("output without the line (a script error, no wrk) is an error that shows wrk's output")
    void noLineIsAnError() {
        assertThatIllegalStateException().isThrownBy(() -> Wrk.parse("wrk", "unable to connect to 127.0.0.1:1"))
                .withMessageContaining("unable to connect");
    }
}

package archlab.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A fleet instance attaches to the prefix its runner opened, and to nothing else: checked before any connection. */
class LabRedisAttachTest {

    @ParameterizedTest(name = "prefix \"{0}\"")
    @ValueSource(strings = {"", "lab:", "lab:fleet:", "lab:fleet:1234567:", "lab:fleet:123456789:", "lab:fleet:1234567g:",
        "lab:Fleet:12345678:", "other:fleet:12345678:", "lab:fleet:12345678", "lab:fleet:12345678:*", "*",
        "lab:fleet:12345678:\nFLUSHALL", "lab:../:12345678:"})
    void anythingButAPrefixOpenMadeIsRefusedBeforeConnecting(String prefix) {
        // the URL points nowhere: a refusal that needed the server would fail differently (IllegalStateException)
        assertThatThrownBy(() -> LabRedis.attach("redis://127.0.0.1:1", prefix, Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a lab prefix");
    }
}

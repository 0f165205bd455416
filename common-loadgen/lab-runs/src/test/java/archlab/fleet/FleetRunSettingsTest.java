package archlab.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.PaymentsStub;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a fleet instance is told, and how a fleet run's settings refuse what cannot be measured. */
class FleetRunSettingsTest {

    private static final FleetRun.Instance INSTANCE = new FleetRun.Instance(URI.create("http://127.0.0.1:4321/"),
            new FleetRun.Stores("jdbc:postgresql://127.0.0.1:5432/archlab?user=archlab", "lab_fleet_1",
                    "redis://127.0.0.1:6379", "lab:fleet:0a1b2c3d:"),
            FleetRun.Variant.SHARED, new PaymentsStub.Quota(50, 10));

    private final Map<String, String> saved = new HashMap<>();

    private void set(String key, String value) {
        saved.putIfAbsent(key, System.getProperty(key));
        System.setProperty(key, value);
    }

    @AfterEach
    void restore() {
        saved.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
    }

    private void handToThisJvm(FleetRun.Instance instance) {
        for (String option : instance.jvmOptions()) {
            String kv = option.substring("-D".length());
            set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
    }

    @Test
    @DisplayName("an instance reads back exactly what the runner handed it in -D options")
    void whatTheRunnerHandsIsWhatTheInstanceReads() {
        handToThisJvm(INSTANCE);
        assertThat(FleetRun.Instance.fromSystem()).isEqualTo(INSTANCE);
        assertThat(INSTANCE.payBucketKey()).isEqualTo("lab:fleet:0a1b2c3d:bucket:pay:shared");
    }

    @Test
    @DisplayName("a bad -D option stops an instance naming the property: an unknown invalidation, a rate that is not a number, a downstream off loopback, one missing")
    void badOptionsAreRefusedByName() {
        handToThisJvm(INSTANCE);
        set("archlab.fleet.invalidation", "SIDEWAYS");
        assertThatThrownBy(FleetRun.Instance::fromSystem).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-Darchlab.fleet.invalidation=SIDEWAYS");
        handToThisJvm(INSTANCE);
        set("archlab.fleet.pay.rate", "fifty");
        assertThatThrownBy(FleetRun.Instance::fromSystem).hasMessageContaining("-Darchlab.fleet.pay.rate=fifty");
        handToThisJvm(INSTANCE);
        set("archlab.fleet.downstream", "http://example.com:80/");
        assertThatThrownBy(FleetRun.Instance::fromSystem).hasMessageContaining("must be http://127.0.0.1:<port>");
        handToThisJvm(INSTANCE);
        set("archlab.fleet.schema", " ");
        assertThatThrownBy(FleetRun.Instance::fromSystem).hasMessageContaining("-Darchlab.fleet.schema is required");
    }

    @Test
    @DisplayName("a fleet run refuses settings it could not measure: one instance, a flood not above the quota, pays under a paused Redis not under it, no rate or no delays")
    void settingsThatMeasureNothingAreRefused() {
        FleetRun.FleetSettings ok = FleetRun.FleetSettings.of(FleetRunSettingsTest.class);
        PaymentsStub.Quota quota = ok.quota();
        assertThatThrownBy(() -> new FleetRun.FleetSettings(Object.class, 1, quota, ok.flood(), ok.reads(), ok.pause()))
                .hasMessageContaining("at least 2 instances");
        assertThatThrownBy(() -> new FleetRun.FleetSettings(Object.class, 2, quota, new FleetRun.Flood(50, Duration.ofSeconds(1)),
                ok.reads(), ok.pause())).hasMessageContaining("more than the quota");
        assertThatThrownBy(() -> new FleetRun.FleetSettings(Object.class, 2, quota, ok.flood(), ok.reads(),
                new FleetRun.Pause(Duration.ofSeconds(1), 10, 50))).hasMessageContaining("under the quota");
        assertThatThrownBy(() -> new FleetRun.Flood(0, Duration.ofSeconds(1))).hasMessageContaining("positive");
        assertThatThrownBy(() -> new FleetRun.Reads(4, Duration.ofSeconds(1), List.of())).hasMessageContaining("delays");
    }
}

package archlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ScenarioProgressTest {

    private static final List<String> CHECKPOINTS = List.of("step-a", "step-b", "step-c");

    @Test
    @DisplayName("the progress line names the scenario and the checkpoint and counts the runs left in the full 3 × 3 table")
    void progressCountsTheRunsLeft() {
        assertThat(ScenarioProgress.progressLine("step-a", CHECKPOINTS, "normal", 0, 3))
                .isEqualTo("[scenarios] step-a: normal (scenario 1 of 3, checkpoint 1 of 3, 8 runs left in the full table)");
        assertThat(ScenarioProgress.progressLine("step-b", CHECKPOINTS, "slow-downstream", 1, 3))
                .endsWith("(scenario 2 of 3, checkpoint 2 of 3, 4 runs left in the full table)");
        assertThat(ScenarioProgress.progressLine("step-c", CHECKPOINTS, "slow-downstream", 1, 3))
                .endsWith("(scenario 2 of 3, checkpoint 3 of 3, 1 run left in the full table)");
        assertThat(ScenarioProgress.progressLine("step-c", CHECKPOINTS, "failing-downstream", 2, 3))
                .endsWith("(scenario 3 of 3, checkpoint 3 of 3, 0 runs left in the full table)");
    }

    @Test
    @DisplayName("an unknown checkpoint or a scenario index outside the catalogue is a clear error")
    void badInputIsRefused() {
        assertThatThrownBy(() -> ScenarioProgress.progressLine("step-z", CHECKPOINTS, "normal", 0, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step-z").hasMessageContaining("step-a");
        assertThatThrownBy(() -> ScenarioProgress.progressLine("step-a", CHECKPOINTS, "normal", 3, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
    }

    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.DisplayName("-Dscenarios alone runs the catalogue; names pick scenarios once each; an unknown name or an empty list is refused, naming the known ones")
    void selection() {
        org.assertj.core.api.Assertions.assertThat(ScenarioProgress.selected("")).isEqualTo(Scenario.catalogue());
        org.assertj.core.api.Assertions.assertThat(ScenarioProgress.selected("true")).isEqualTo(Scenario.catalogue());
        org.assertj.core.api.Assertions.assertThat(ScenarioProgress.selected("retry-storm, normal,retry-storm"))
                .extracting(Scenario::name).containsExactly("retry-storm", "normal");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioProgress.selected("retry-strom"))
                .hasMessageContaining("unknown scenario 'retry-strom' (did you mean retry-storm?)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioProgress.selected(" , "))
                .hasMessageContaining("names no scenario");
    }
}

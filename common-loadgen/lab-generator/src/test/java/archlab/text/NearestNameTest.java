package archlab.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NearestNameTest {

    private static final List<String> SCENARIOS = List.of("normal", "slow-downstream", "failing-downstream", "long-outage", "retry-storm");

    @Test
    @DisplayName("a name two edits or fewer away is offered (case ignored); one further off is not: a suggestion is never a guess")
    void offersOnlyCloseNames() {
        assertThat(NearestName.among("retry-strom", SCENARIOS)).contains("retry-storm");
        assertThat(NearestName.among("NORMAL", SCENARIOS)).contains("normal");
        assertThat(NearestName.among("slow", SCENARIOS)).isEmpty();
        assertThat(NearestName.among("x", List.of())).isEmpty();
    }

    @Test
    @DisplayName("the edit distance counts insertions, deletions and substitutions")
    void editDistance() {
        assertThat(NearestName.editDistance("lab.rat", "lab.rate")).isEqualTo(1);
        assertThat(NearestName.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(NearestName.editDistance("", "abc")).isEqualTo(3);
    }
}

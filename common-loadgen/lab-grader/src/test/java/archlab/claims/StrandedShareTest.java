package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StrandedShareTest {

    @Test
    @DisplayName("12.1-charged-not-paid asks for a tenth of the orders charged stranded, at least one: ch12-1's 70 of 157 pass, ch12-2's 1 of 753 (CI) fails, none never passes")
    void aTenthOfTheOrdersCharged() {
        assertThat(BaselineEvidenceClaims.enoughStranded(70, 157)).isTrue();
        assertThat(BaselineEvidenceClaims.enoughStranded(1, 753)).isFalse();
        assertThat(BaselineEvidenceClaims.enoughStranded(0, 0)).isFalse();
        assertThat(BaselineEvidenceClaims.strandedNeeded(157)).isEqualTo(16);
        assertThat(BaselineEvidenceClaims.enoughStranded(15, 157)).isFalse();
        assertThat(BaselineEvidenceClaims.enoughStranded(16, 157)).isTrue();
        assertThat(BaselineEvidenceClaims.strandedNeeded(3)).isEqualTo(1);
    }
}

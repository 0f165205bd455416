package archlab.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LabNamespaceTest {

    private static final LabNamespace.Spelling UNDERSCORES = new LabNamespace.Spelling("_", 5, "",
            Pattern.compile("lab_[a-z0-9_]+"), "not one: '%s'");

    @Test
    @DisplayName("open names a fresh, owned namespace after the label (cut, in [a-z0-9_]) and 8 random hex digits")
    void openNamesAFreshOwnedNamespace() {
        LabNamespace a = LabNamespace.open("Book Lab!", UNDERSCORES);
        assertThat(a.owned()).isTrue();
        assertThat(a.name()).matches("lab_book__[0-9a-f]{8}");
        assertThat(LabNamespace.open(null, UNDERSCORES).name()).matches("lab_[0-9a-f]{8}");
        assertThat(LabNamespace.open("x", UNDERSCORES).name()).isNotEqualTo(LabNamespace.open("x", UNDERSCORES).name());
    }

    @Test
    @DisplayName("attach keeps another's namespace, not owned, and refuses a name of another shape with the spelling's message")
    void attachChecksTheShape() {
        LabNamespace b = LabNamespace.attach("lab_x_0a0b0c0d", UNDERSCORES);
        assertThat(b.owned()).isFalse();
        assertThat(b.name()).isEqualTo("lab_x_0a0b0c0d");
        assertThatThrownBy(() -> LabNamespace.attach("public", UNDERSCORES)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not one: 'public'");
    }
}

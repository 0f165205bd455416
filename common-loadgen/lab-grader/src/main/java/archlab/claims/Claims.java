package archlab.claims;

import java.util.ArrayList;
import java.util.List;

/** Every claim of every suite, in chapter order. */
public final class Claims {

    private Claims() {
    }

    /** @return every claim, contract first, then 12.1's evidence, 12.2's consistency and lesson, 12.3's lesson */
    public static List<Claim> all() {
        List<Claim> all = new ArrayList<>();
        all.addAll(ContractClaims.claims());
        all.addAll(BaselineEvidenceClaims.claims());
        all.addAll(ConsistencyClaims.claims());
        all.addAll(RefactorClaims.claims());
        all.addAll(HardeningClaims.claims());
        return List.copyOf(all);
    }

    /** @return the claims of {@code suites}, in chapter order */
    public static List<Claim> of(List<Suite> suites) {
        return all().stream().filter(c -> suites.contains(c.suite())).toList();
    }
}

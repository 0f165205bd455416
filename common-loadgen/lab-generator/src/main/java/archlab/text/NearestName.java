package archlab.text;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name closest to one a reader typed: what a "did you mean …?" offers. Closeness is the edit distance
 * (insertions, deletions, substitutions; case ignored), and only names at most {@link #MAX_EDITS} edits away are
 * offered: a suggestion further off would be a guess.
 *
 * <p>Stateless; thread-safe.
 */
public final class NearestName {

    /** The most edits a suggestion may be away from what was typed. */
    public static final int MAX_EDITS = 2;

    private NearestName() {
    }

    /** @return the name of {@code known} closest to {@code typed}, when it is at most {@link #MAX_EDITS} edits away */
    public static Optional<String> among(String typed, Collection<String> known) {
        String t = typed.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = editDistance(t, k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return bestDistance <= MAX_EDITS ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

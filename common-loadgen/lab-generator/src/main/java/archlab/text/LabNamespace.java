package archlab.text;

import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A fixture's own namespace on a server other runs share (a PostgreSQL schema, a Redis key prefix), opened or attached
 * alike: {@link #open} names a fresh one after a label and four random bytes, and owns it (its fixture removes it on
 * close); {@link #attach} takes the name of one another fixture opened, checked, and leaves it to that owner.
 *
 * @param name  the namespace's name as the server sees it: {@code lab_orders_1a2b3c4d}, {@code lab:orders:1a2b3c4d:}
 * @param owned whether the fixture that holds it removes it on close
 */
public record LabNamespace(String name, boolean owned) {

    /**
     * How one kind of namespace spells its names.
     *
     * @param separator  between {@code lab}, the label and the random part: {@code _}, {@code :}
     * @param maxLabel   the most characters of the label kept
     * @param terminator after the random part: {@code ""}, {@code ":"}
     * @param shape      what an attached name must match
     * @param refusal    the message for a name that does not, {@code %s} the name
     */
    public record Spelling(String separator, int maxLabel, String terminator, Pattern shape, String refusal) {
    }

    /** @return a fresh, owned namespace: {@code lab<sep><label><sep><8 hex><terminator>}, the label in {@code [a-z0-9_]} */
    public static LabNamespace open(String label, Spelling spelling) {
        String l = label == null ? "" : label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        l = l.length() > spelling.maxLabel() ? l.substring(0, spelling.maxLabel()) : l;
        byte[] random = new byte[4];
        ThreadLocalRandom.current().nextBytes(random);
        String sep = spelling.separator();
        return new LabNamespace("lab" + sep + (l.isEmpty() ? "" : l + sep) + HexFormat.of().formatHex(random)
                + spelling.terminator(), true);
    }

    /**
     * @return {@code name}, another fixture's namespace, not owned
     * @throws IllegalArgumentException when {@code name} does not have the spelling's shape
     */
    public static LabNamespace attach(String name, Spelling spelling) {
        if (name == null || !spelling.shape().matcher(name).matches()) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, spelling.refusal(), name));
        }
        return new LabNamespace(name, false);
    }
}

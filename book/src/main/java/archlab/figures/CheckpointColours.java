package archlab.figures;

import java.awt.Color;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One colour per checkpoint, the same in every figure, so that a reader who has learnt that ch12-2 is blue in one
 * chart reads blue as ch12-2 in the next.
 *
 * <p>The contract:
 * <ul>
 *   <li>a series stands for a checkpoint when its name contains the checkpoint's id ({@code ch12-1}, {@code ch12-2},
 *       {@code ch12-3}) as a word of its own, which every module name ({@code ch12-2-cache-outbox-ratelimit}) and
 *       every label built from one ({@code "ch12-2-cache-outbox-ratelimit limiter-lifted"}, {@code "ch12-1-baseline /
 *       baseline"}) does; {@code ch12-10} and {@code xch12-1} are not ch12-1. When a name holds two ids, the first
 *       one counts;</li>
 *   <li>such a series is drawn in its checkpoint's colour ({@link #of}), whatever its position in the chart;</li>
 *   <li>any other line (an operation, a metric over time) takes a colour from {@link #other}, and nothing that is
 *       not a checkpoint (those lines, a reference line, a shaded window) is drawn in or near a checkpoint's
 *       colour.</li>
 * </ul>
 *
 * <p>The colours are from Okabe and Ito's palette (2008), chosen to stay apart for readers with any of the common
 * colour vision deficiencies and dark enough for a line on white paper: ch12-1 vermillion, ch12-2 blue, ch12-3 bluish
 * green. Their greys are close, so where lines of checkpoints meet (the sweep chart) each checkpoint also has its own
 * marker shape. The others are black, Okabe and Ito's reddish purple, olive, a dark purple and grey. The palette's
 * orange is too near vermillion and its sky blue too near blue to draw a line that is not a checkpoint's; sky blue and
 * the palette's yellow (too light for a line on white) only shade areas, pale. Immutable and thread-safe.
 */
final class CheckpointColours {

    /**
     * One checkpoint.
     *
     * @param id         its short name, {@code ch12-N}
     * @param module     its Maven module
     * @param colour     the colour of its series in every figure
     * @param colourName what the colour is called in Okabe and Ito's palette
     */
    record Checkpoint(String id, String module, Color colour, String colourName) {
    }

    static final Color VERMILLION = new Color(0xD5, 0x5E, 0x00);
    static final Color BLUE = new Color(0x00, 0x72, 0xB2);
    static final Color BLUISH_GREEN = new Color(0x00, 0x9E, 0x73);

    /** The three checkpoints, in the chapter's order. */
    static final List<Checkpoint> CHECKPOINTS = List.of(
            new Checkpoint("ch12-1", "ch12-1-baseline", VERMILLION, "vermillion"),
            new Checkpoint("ch12-2", "ch12-2-cache-outbox-ratelimit", BLUE, "blue"),
            new Checkpoint("ch12-3", "ch12-3-fault-scenarios", BLUISH_GREEN, "bluish green"));

    static final Color REDDISH_PURPLE = new Color(0xCC, 0x79, 0xA7);
    /** Okabe and Ito's sky blue: near the checkpoints' blue as a line, apart from it as a pale shade. */
    static final Color SKY_BLUE = new Color(0x56, 0xB4, 0xE9);
    /** Okabe and Ito's yellow: too light for a line on white, right for a pale shade. */
    static final Color YELLOW = new Color(0xF0, 0xE4, 0x42);

    /** Colours for series that are not checkpoints, in the order {@link #other} hands them out. */
    static final List<Color> OTHERS = List.of(
            Color.BLACK,
            REDDISH_PURPLE,
            new Color(0x80, 0x80, 0x00), // olive
            new Color(0x6A, 0x3D, 0x9A), // dark purple
            new Color(0x88, 0x88, 0x88)); // grey

    /** A checkpoint id standing as a word of its own: not preceded by a letter or digit, not followed by a digit. */
    private static final Pattern ID = Pattern.compile("(?<![A-Za-z0-9])ch12-(\\d+)(?![0-9])");

    private CheckpointColours() {
    }

    /** @return the checkpoint whose id {@code seriesName} names first, if any (see the class comment) */
    static Optional<Checkpoint> checkpointOf(String seriesName) {
        Matcher m = ID.matcher(seriesName);
        while (m.find()) {
            String id = m.group();
            Optional<Checkpoint> known = CHECKPOINTS.stream().filter(c -> c.id().equals(id)).findFirst();
            if (known.isPresent()) {
                return known;
            }
        }
        return Optional.empty();
    }

    /** @return the colour of the checkpoint {@code seriesName} stands for, if it stands for one */
    static Optional<Color> of(String seriesName) {
        return checkpointOf(seriesName).map(Checkpoint::colour);
    }

    /** @return the {@code i}-th colour for a series that is not a checkpoint (0-based; repeats after the last) */
    static Color other(int i) {
        return OTHERS.get(Math.floorMod(i, OTHERS.size()));
    }

    /** @return {@code colour} with the given opacity, 0 (invisible) to 255 (opaque): for shading, not for lines */
    static Color withAlpha(Color colour, int alpha) {
        return new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), alpha);
    }
}

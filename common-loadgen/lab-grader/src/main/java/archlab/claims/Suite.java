package archlab.claims;

import java.util.Arrays;
import java.util.List;

/**
 * The chapters' claim suites and where each must hold — the lesson's shape. A lesson claim proves its lesson only if
 * it fails on the checkpoint before it, so the shape says where each suite must fail too:
 * <ul>
 *   <li>{@link #CONTRACT_12_1}: the service's contract, passes on every checkpoint;</li>
 *   <li>{@link #EVIDENCE_12_1}: the baseline's flaw, true of ch12-1 only;</li>
 *   <li>{@link #CONSISTENCY_12_2}: what a read cache must not break (a client reads its own writes), passes on every
 *       checkpoint — ch12-1 has no cache to go stale — and is graded from chapter 12.2 on, where the cache arrives;</li>
 *   <li>{@link #LESSON_12_2}: fails on ch12-1, passes on ch12-2 and ch12-3;</li>
 *   <li>{@link #LESSON_12_3}: fails on ch12-2, passes on ch12-3; on ch12-1 it may go either way (a baseline that
 *       holds every caller in one queue can, by luck of its lock, answer close to the deadline).</li>
 * </ul>
 */
public enum Suite {

    CONTRACT_12_1("12.1-contract", "12.1", List.of(true, true, true)),
    EVIDENCE_12_1("12.1-evidence", "12.1", List.of(true, false, false)),
    CONSISTENCY_12_2("12.2-consistency", "12.2", List.of(true, true, true)),
    LESSON_12_2("12.2-lesson", "12.2", List.of(false, true, true)),
    LESSON_12_3("12.3-lesson", "12.3", Arrays.asList(null, false, true));

    private final String id;
    private final String chapter;
    private final List<Boolean> passesOn;

    Suite(String id, String chapter, List<Boolean> passesOn) {
        this.id = id;
        this.chapter = chapter;
        this.passesOn = passesOn;
    }

    public String id() {
        return id;
    }

    /** @return the chapter whose text explains this suite's claims */
    public String chapter() {
        return chapter;
    }

    /**
     * @return whether every claim of this suite must pass on {@code checkpoint}, the checkpoint of a chapter
     *         ({@link #chapterOf}); {@code false}: every claim must fail there; {@code null}: the lesson's shape says
     *         nothing there
     * @throws IllegalArgumentException for a module that is no chapter's checkpoint
     */
    public Boolean passesOn(String checkpoint) {
        return passesOn.get(chapterOf(checkpoint).charAt(3) - '1');
    }

    /** @return whether {@code module} is a chapter's checkpoint by its name ({@code ch12-<n>-…}, n from 1 to 3) */
    public static boolean isCheckpoint(String module) {
        return module.matches("ch12-[123]-.*");
    }

    /**
     * What a grade of {@code chapter} runs: the contract (from 12.2 on with the cache's consistency), and that chapter's lessons with the lessons before it
     * (12.3 builds on 12.2). Grading 12.1 is the contract and the baseline's evidence.
     *
     * @throws IllegalArgumentException for a chapter other than 12.1, 12.2, 12.3
     */
    public static List<Suite> gradedFor(String chapter) {
        return switch (chapter) {
            case "12.1" -> List.of(CONTRACT_12_1, EVIDENCE_12_1);
            case "12.2" -> List.of(CONTRACT_12_1, CONSISTENCY_12_2, LESSON_12_2);
            case "12.3" -> List.of(CONTRACT_12_1, CONSISTENCY_12_2, LESSON_12_2, LESSON_12_3);
            default -> throw new IllegalArgumentException("no claims for chapter '" + chapter + "'; grade one of 12.1, 12.2, 12.3");
        };
    }

    /** @return the chapter a checkpoint module teaches: ch12-2-… → 12.2 */
    public static String chapterOf(String module) {
        if (isCheckpoint(module)) {
            return "12." + module.charAt(5);
        }
        throw new IllegalArgumentException("'" + module + "' is not a chapter checkpoint (ch12-1-…, ch12-2-…, ch12-3-…)");
    }
}

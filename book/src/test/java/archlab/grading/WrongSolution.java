package archlab.grading;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One wrong solution the guide names, as book/grading/wrong/&lt;name&gt;.patch holds it: a header saying which
 * checkpoint's code it changes, which chapter grades it, which claims must catch it and how the guide describes it,
 * then a unified diff against that checkpoint (paths relative to the module, for {@code git apply -p1}).
 *
 * @param name  the file's name without {@code .patch}
 * @param base  the checkpoint module it patches, e.g. {@code ch12-2-cache-outbox-ratelimit}
 * @param grade the chapter that grades it: 12.2 or 12.3
 * @param loses the claims it must lose on every seed
 * @param mayAlsoLose claims it loses on some seeds' inputs only (optional header {@code May also lose: ids — why}): the
 *              harm is real, but whether the drawn inputs reach it is the seed's; none other may be lost
 * @param guide the guide's one-line description of the mistake
 * @param patch the patch file
 */
record WrongSolution(String name, String base, String grade, Set<String> loses, Set<String> mayAlsoLose, String guide, Path patch) {

    static final Path FOLDER = Path.of("grading", "wrong");

    /** @return every wrong solution under {@code book/grading/wrong}, by name */
    static List<WrongSolution> all(Path bookDir) {
        return PatchHeader.patches(bookDir.resolve(FOLDER)).stream().map(WrongSolution::read).toList();
    }

    static WrongSolution read(Path patch) {
        PatchHeader h = PatchHeader.read(patch, List.of("Wrong solution", "Base", "Grade", "Loses", "Guide"));
        Set<String> loses = new TreeSet<>(Arrays.stream(h.get("Loses").split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList());
        String also = h.get("May also lose");
        Set<String> mayAlsoLose = new TreeSet<>(also == null ? List.of() : Arrays.stream(also.split(" — ", 2)[0].split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList());
        if (also != null && (mayAlsoLose.isEmpty() || !also.contains(" — "))) {
            throw new IllegalArgumentException(patch + ": 'May also lose:' names claims, then ' — ' and why");
        }
        return new WrongSolution(h.name(), h.get("Base"), h.get("Grade"), loses, mayAlsoLose, h.get("Guide"), patch);
    }

    /** @return the guide's table row: the description, then the claims that catch it */
    String guideRow() {
        List<String> ids = new ArrayList<>(loses);
        return "| " + guide + " | " + String.join("、", ids.stream().map(id -> "`" + id + "`").toList()) + " | `" + name + "` |";
    }
}

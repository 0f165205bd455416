package archlab.grading;

import java.nio.file.Path;
import java.util.List;

/**
 * One attack on the grader, as book/grading/attacks/&lt;name&gt;.patch holds it: a header saying which checkpoint's
 * code it changes, which chapter grades it, what the grader must do with it and how the instructor's guide describes
 * it, then a unified diff against that checkpoint (paths relative to the module, for {@code git apply -p1}). Unlike a
 * wrong solution ({@link WrongSolution}), an attack names no claims it must lose: it must gain nothing.
 *
 * @param name   the file's name without {@code .patch}
 * @param base   the checkpoint module it patches, e.g. {@code ch12-1-baseline}
 * @param grade  the chapter that grades it, e.g. 12.2
 * @param expect what the grader must do with it, in one line
 * @param guide  the guide's one-line description of the attack
 * @param patch  the patch file
 */
record Attack(String name, String base, String grade, String expect, String guide, Path patch) {

    static final Path FOLDER = Path.of("grading", "attacks");

    /** @return every attack under {@code book/grading/attacks}, by name */
    static List<Attack> all(Path bookDir) {
        return PatchHeader.patches(bookDir.resolve(FOLDER)).stream().map(Attack::read).toList();
    }

    static Attack read(Path patch) {
        PatchHeader h = PatchHeader.read(patch, List.of("Attack", "Base", "Grade", "Expect", "Guide"));
        return new Attack(h.name(), h.get("Base"), h.get("Grade"), h.get("Expect"), h.get("Guide"), patch);
    }
}

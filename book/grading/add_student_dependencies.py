"""Adds to the lab's ch12-1-baseline/pom.xml the <dependency> entries of the student's that it lacks.

    python3 add_student_dependencies.py <student pom.xml> <lab pom.xml>

Only <dependencies> is read from the student's POM, and only libraries a service of this lab has a use for may come
from it: those of the lab's own dependencyManagement that the checkpoints' main code uses (ALLOWED). A dependency is
matched by groupId:artifactId; one the lab already has keeps the lab's version and scope; a new one is added with
the lab's managed version, compile scope and nothing else of the student's entry (no version, type, classifier,
systemPath or exclusions). A test-scoped dependency is left out, whatever it is: only the student's src/main is graded. Any other dependency refuses the submission (exit 3): a library from anywhere could carry a
class named like the grader's, an annotation processor, or a JUnit extension that runs before the claims.
Prints what it added.
"""
import sys
import xml.etree.ElementTree as ET

NS = {"m": "http://maven.apache.org/POM/4.0.0"}

# what ch12-2 and ch12-3 add to ch12-1's POM, and what ch12-1 itself uses
ALLOWED = {
    ("com.github.ben-manes.caffeine", "caffeine"),
    ("com.bucket4j", "bucket4j_jdk17-core"),
    ("com.fasterxml.jackson.core", "jackson-databind"),
    ("org.hdrhistogram", "HdrHistogram"),
}
# the lab's own modules and the test libraries, which the lab's POM declares itself
IGNORED_GROUPS = {"dev.archlab", "org.junit.jupiter", "org.junit.platform", "org.assertj", "org.mockito", "com.tngtech.archunit"}


def deps(root):
    out = {}
    for d in root.findall("m:dependencies/m:dependency", NS):
        key = (d.findtext("m:groupId", "", NS).strip(), d.findtext("m:artifactId", "", NS).strip())
        out[key] = d
    return out


def main(student_pom, lab_pom):
    ET.register_namespace("", NS["m"])
    student = ET.parse(student_pom).getroot()
    lab_tree = ET.parse(lab_pom)
    lab = lab_tree.getroot()
    have = deps(lab)
    added, refused = [], []
    container = lab.find("m:dependencies", NS)
    skipped = []
    for key, d in deps(student).items():
        if key in have or key[0] in IGNORED_GROUPS:
            continue
        if d.findtext("m:scope", "", NS).strip() == "test":
            skipped.append(":".join(key))  # only src/main is graded: a test library of the student's never reaches it
            continue
        if key not in ALLOWED:
            refused.append(":".join(key))
            continue
        clean = ET.SubElement(container, "{%s}dependency" % NS["m"])
        ET.SubElement(clean, "{%s}groupId" % NS["m"]).text = key[0]
        ET.SubElement(clean, "{%s}artifactId" % NS["m"]).text = key[1]
        added.append(":".join(key))
    if refused:
        print("refused: the student's POM adds " + ", ".join(refused) + "; a solution may add only "
              + ", ".join(sorted(":".join(k) for k in ALLOWED)) + " (grade 0)", file=sys.stderr)
        sys.exit(3)
    lab_tree.write(lab_pom, encoding="UTF-8", xml_declaration=True)
    print("dependencies added from the student's POM: " + (", ".join(added) if added else "none"))
    if skipped:
        print("test-scoped, not added (only src/main is graded): " + ", ".join(skipped))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

"""Adds to the lab's ch12-1-baseline/pom.xml the <dependency> entries of the student's that it lacks.

    python3 add_student_dependencies.py <student pom.xml> <lab pom.xml>

Only <dependencies> is read from the student's POM: a dependency is matched by groupId:artifactId; one the lab
already has keeps the lab's version and scope. Nothing else of the student's POM is used. Prints what it added.
"""
import sys
import xml.etree.ElementTree as ET

NS = {"m": "http://maven.apache.org/POM/4.0.0"}


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
    added = []
    container = lab.find("m:dependencies", NS)
    for key, d in deps(student).items():
        if key not in have:
            container.append(d)
            added.append(":".join(key))
    lab_tree.write(lab_pom, encoding="UTF-8", xml_declaration=True)
    print("dependencies added from the student's POM: " + (", ".join(added) if added else "none"))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

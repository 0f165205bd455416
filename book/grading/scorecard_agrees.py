"""Checks a grade's scorecard against Surefire's report of the same run.

    python3 scorecard_agrees.py <grade-12.2.json> <TEST-archlab.order.ChapterClaimsTest.xml>

The scorecard is written by the grader's JVM (the student's code runs in processes of its own); Surefire's XML is
written by Maven's own JVM from the test events. Both must say the same: every claim the scorecard counts as passed is a passed test case
named "[<id>] … (<points> pt)", every other claim is not, and the points add up. Exit 0 if they agree; 1 with the
difference if not.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def main(card_path, xml_path):
    card = json.load(open(card_path, encoding="utf-8"))
    runner = {}
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        m = re.search(r"\[([0-9.]+-[a-z-]+)\] .* \((\d+) pt\)$", case.get("name", ""))
        if m:
            failed = any(child.tag in ("failure", "error", "skipped") for child in case)
            runner[m.group(1)] = (not failed, int(m.group(2)))
    problems = []
    if card.get("refusals"):
        if card.get("pointsEarned") != 0:
            problems.append("a refused solution with %s points" % card.get("pointsEarned"))
        return report(problems)
    earned = 0
    for claim in card["claims"]:
        passed = claim["outcome"] == "PASSED"
        seen = runner.get(claim["id"])
        if seen is None:
            problems.append("%s is on the scorecard but the runner did not run it" % claim["id"])
            continue
        if seen[0] != passed:
            problems.append("%s: scorecard %s, runner %s" % (claim["id"], claim["outcome"], "passed" if seen[0] else "not passed"))
        if passed:
            earned += seen[1]
    if earned != card["pointsEarned"]:
        problems.append("points: scorecard %s, runner %s" % (card["pointsEarned"], earned))
    extra = set(runner) - {c["id"] for c in card["claims"]}
    if extra:
        problems.append("the runner ran claims the scorecard does not list: " + ", ".join(sorted(extra)))
    return report(problems)


def report(problems):
    if problems:
        print("; ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))

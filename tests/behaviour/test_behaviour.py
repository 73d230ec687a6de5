"""What the engine computes on the samples and a generated session is what tests/behaviour/expected says.

One test per case (cases.py): a pipeline run, a replay per strategy and a sweep of each input. On a
difference the failure tells the first differing calls, column by column; a change meant to change
behaviour rewrites the files with `python -m tests.behaviour.regenerate` and names the change in its commit.
"""

import pytest

from tests.behaviour.cases import EXPECTED, REGENERATE, cases, text
from tests.behaviour.compare import differences


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_case_computes_what_its_expected_file_says(case):
    assert case.expected_path.exists(), f"{case.expected_path} is missing: run `{REGENERATE}`"
    told = differences(case.expected_path.read_text(encoding="utf-8"), text(case))
    if told:  # the message alone: pytest's rewrite of an assert would show this test's source instead
        pytest.fail(f"{case.name} differs from {case.expected_path.relative_to(EXPECTED.parents[2])} "
                    "(expected -> found):\n" + "\n".join(told)
                    + f"\nIf the change is meant: `{REGENERATE}`, then name it in the commit.", pytrace=False)


def test_every_expected_file_belongs_to_a_case():
    wanted = {case.expected_path for case in cases()}
    stale = sorted(str(path.relative_to(EXPECTED)) for path in EXPECTED.rglob("*.txt") if path not in wanted)
    assert not stale, f"expected files of no case (remove them with `{REGENERATE}`): {stale}"

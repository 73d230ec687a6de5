"""What the engine computes on the samples and a generated session is unchanged (see fingerprints.py)."""

import json

from tests.behaviour.fingerprints import EXPECTED, fingerprints


def test_replays_sweeps_and_runs_compute_what_they_computed_before():
    expected = json.loads(EXPECTED.read_text())
    found = fingerprints()
    assert found.keys() == expected.keys()
    changed = sorted(name for name in found if found[name] != expected[name])
    assert not changed, f"{len(changed)} of {len(found)} fingerprints changed: {changed[:10]}"

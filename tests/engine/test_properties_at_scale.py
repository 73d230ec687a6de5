"""The engine's invariants over many thousands of generated conversations, deterministically.

The hypothesis tests (test_properties.py) search for odd shapes; this sweep covers scale: SCALE_SESSIONS
realistic sessions (compaction.generate, one seed each, 2 to 40 turns, outputs up to 6,000 characters),
each run through the pipeline with settings cycled so that every layer fires often, checking after
every layer that tool pairs are valid and sizes exact, that the input is not mutated, that persisted
files equal the outputs they replaced and that snipped + kept = the original; and reactive compaction
keeping pairs on every tenth session.
"""

import copy
import os
import tempfile
from pathlib import Path

import pytest

from compaction import OutputStore, check_pairs
from compaction.generate import realistic_session
from compaction.layers.reactive import reactive_compact
from compaction.model.settings import DEFAULTS

from .test_properties import check_one_run

SCALE_SESSIONS = int(os.environ.get("SCALE_SESSIONS", "6000"))
CHUNKS = 12
# Small values so that L3, L1, L2 and L4 all fire on small sessions. The cycle lengths are pairwise
# co-prime, so consecutive seeds meet different combinations (60,060 before one repeats).
SETTING_CYCLES = {
    "context_limit": (1_000, 4_000, 15_000, 50_000, 2_500),
    "keep_recent": (0, 1, 3, 2),
    "persist_threshold": (200, 1_000, 3_000, 30_000, 500, 50, 8_000),
    "max_messages": (4, 9, 20, 50, 6, 13, 30, 80, 5, 11, 40),
    "max_bytes": (0, 500, 3_000, 200_000, 1_500, 10_000, 100, 50_000, 800, 20_000, 250, 7_000, 60_000),
    "preview_chars": (0, 40, 2_000),
}


def settings_for(seed: int):
    return DEFAULTS.replace(**{name: values[seed % len(values)] for name, values in SETTING_CYCLES.items()})


def session_for(seed: int) -> list[dict]:
    turns = 2 + seed % 39
    return realistic_session(turns=turns, typical_output=150 + seed % 400, max_output=6_000,
                             parallel_share=(seed % 5) / 10, seed=seed)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_invariants_over_thousands_of_generated_sessions(chunk):
    seeds = range(chunk, SCALE_SESSIONS, CHUNKS)
    layers_fired = {"L3": 0, "L1": 0, "L2": 0, "L4": 0}
    with tempfile.TemporaryDirectory() as root:
        for seed in seeds:
            messages = session_for(seed)
            before = copy.deepcopy(messages)
            store = OutputStore(Path(root) / str(seed))  # ids repeat across seeds: one store each
            result = check_one_run(messages, before, settings_for(seed), store)
            layers_fired["L3"] += bool(result.persisted)
            layers_fired["L1"] += bool(result.snipped)
            layers_fired["L2"] += bool(result.placeholders)
            layers_fired["L4"] += bool(result.summary and result.summary.triggered)
            if seed % 10 == 0:
                out = reactive_compact(messages, store=store)
                assert check_pairs(out.messages) == [], seed
                assert messages == before
    # the sweep is only worth its time if every layer acted on a fair share of the sessions (L3 needs
    # the last message to hold tool results, so it fires least)
    assert all(count >= len(seeds) // 20 for count in layers_fired.values()), layers_fired


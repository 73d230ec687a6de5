"""The kernel gives exactly the loop's records and cells: on every bundled sample, on generated sessions
(parallel calls, large outputs), on a generated Claude Code log with recorded usage and compactions of its
own (the recorded tokens and cache, the anchored estimate, preTokens; also with `from_log=False`), on the
hand-written real-layout cases, and on a long session over Tune's whole default grid."""

from pathlib import Path

import pytest

from compaction import Settings
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.strategies.person import PERSON_ACTIONS

from ..engine.builders import compacted_claude_code_log
from .kernel_check import check_grid

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
TIGHT = Settings(context_limit=8_000, keep_recent=2, persist_threshold=5_000, max_messages=12, max_bytes=50_000,
                 preview_chars=300)
SMALL = Settings(context_limit=2_000, keep_recent=0, max_messages=5, max_bytes=0, persist_threshold=1,
                 preview_chars=0, min_placeholder_chars=0, keep_head=2, reactive_keep_last=1)
GRID = [Settings(), TIGHT, SMALL, Settings(context_limit=10_000, keep_recent=1),
        Settings(context_limit=30_000, keep_recent=7, max_messages=20, keep_head=4), Settings(context_limit=10 ** 8)]
SAMPLE_FILES = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl"))
CASE_FILES = sorted(p.name for p in CASES.iterdir() if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_samples(name):
    done, left = check_grid(load_conversation(SAMPLES / name), GRID)
    assert done >= 4, left  # only a cell whose calls go over the model window is left to the loop
    assert set(left) <= {"a call goes over the model window: reactive compaction"}


@pytest.mark.parametrize("name", SAMPLE_FILES[:3])
def test_samples_at_small_windows_leave_the_reactive_cells_to_the_loop(name):
    done, left = check_grid(load_conversation(SAMPLES / name), GRID, model_window_tokens=3_000)
    assert done + len(left) == len(GRID)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_sessions_with_parallel_calls(seed):
    messages = generate("realistic", turns=150, seed=seed, parallel_share=0.5)
    assert check_grid(messages, GRID) == (len(GRID), [])


def test_a_claude_code_log_with_usage_and_its_own_compactions():
    conversation = compacted_claude_code_log()
    assert conversation.metadata.get("compact_boundaries")
    assert check_grid(conversation, GRID) == (len(GRID), [])
    assert check_grid(conversation, GRID[:3], from_log=False) == (3, [])


@pytest.mark.parametrize("name", CASE_FILES)
def test_real_layout_cases(name):
    done, left = check_grid(load_conversation(CASES / name), GRID)
    assert done + len(left) == len(GRID)
    assert set(left) <= {"a call goes over the model window: reactive compaction", "the session calls the compact tool",
                         PERSON_ACTIONS}


def test_tunes_default_grid_on_a_long_session():
    messages = generate("realistic", turns=400, seed=7)
    grid = [Settings(context_limit=limit, keep_recent=keep) for keep in (1, 3, 10)
            for limit in range(10_000, 100_001, 30_000)]
    assert check_grid(messages, grid) == (len(grid), [])

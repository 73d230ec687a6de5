"""A sweep's cells run as branches that share the calls before they differ (sweep/branches.py): each
cell's replay is exactly the replay of that cell alone by the reference loop, for grids over every pair of
the sliders' settings; and the sharing is real (fewer calls made than cells times calls)."""

import itertools
from pathlib import Path

import pytest

from compaction import OutputStore, Settings, prepare
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.replay.context import ReplayContext
from compaction.replay.loop import incremental_form, replay
from compaction.replay.options import ReplayOptions
from compaction.strategies import build, resolve
from compaction.sweep.branches import BranchCounts, branch_replays
from compaction.sweep.grid import SweepStore
from compaction.sweep.sweeps import sweep

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
AXES = {  # a few values each, around where the sessions below start to differ
    "context_limit": (4_000, 12_000, 30_000, 60_000, 1_000_000),
    "keep_recent": (0, 1, 3, 8, 500),
    "persist_threshold": (2_000, 30_000),
    "max_messages": (6, 20, 50, 10_000),
    "max_bytes": (5_000, 200_000),
    "preview_chars": (100, 2_000),
    "min_placeholder_chars": (0, 120, 3_000),
}
BASE = Settings(max_bytes=40_000, persist_threshold=8_000)


def sessions() -> dict:
    return {"generated_parallel": generate("realistic", turns=90, seed=3, parallel_share=0.5),
            "seed_demo": load_conversation(SAMPLES / "seed_demo.json"),
            "claude_code": load_conversation(SAMPLES / "claude_code_session.jsonl")}


def branch_results(prepared, grid_settings, strategy, store):
    _, step = resolve(strategy)
    context = ReplayContext.start(prepared, "pipeline", ReplayOptions(store=store, model_window_tokens=60_000,
                                                                       keep_histories=False))
    counts = BranchCounts()
    found = dict(branch_replays(context, incremental_form(step), list(enumerate(grid_settings)), counts))
    return [found[k] for k in range(len(grid_settings))], counts


@pytest.mark.parametrize("x, y", list(itertools.combinations(AXES, 2)))
def test_every_cell_is_its_own_plain_replay(x, y, tmp_path):
    store = SweepStore(tmp_path)
    for name, conversation in sessions().items():
        prepared = prepare(conversation)
        grid = [BASE.replace(**{x: a, y: b}) for a in AXES[x] for b in AXES[y]
                if x != "max_messages" or a > BASE.keep_head]
        results, counts = branch_results(prepared, grid, "pipeline", store)
        calls = 0
        for cell, result in zip(grid, results, strict=True):
            alone = replay(prepared, cell, store=store, model_window_tokens=60_000, keep_histories=False, plain=True)
            assert result.settings == cell
            assert result.as_dict() == alone.as_dict(), f"{name}: {cell}"
            calls = len(alone.calls)
        assert counts.calls <= len(grid) * calls, name


def test_branches_share_the_calls_before_a_setting_makes_a_difference(tmp_path):
    prepared = prepare(generate("realistic", turns=300, seed=7))
    grid = [Settings(context_limit=limit, keep_recent=keep) for keep in range(1, 11)
            for limit in range(10_000, 100_001, 10_000)]
    results, counts = branch_results(prepared, grid, "pipeline", SweepStore(tmp_path))
    assert counts.calls < 0.8 * len(grid) * len(results[0].calls)
    # limits the history never reached give one replay
    never = [r for r in results if r.max_checked_size is not None and r.max_checked_size <= r.settings.context_limit]
    assert counts.replays < len(grid)
    assert never


def test_pipeline_with_parameters_and_the_sweep_command_agree(tmp_path):
    conversation = generate("realistic", turns=80, seed=5, parallel_share=0.3)
    strategy = build("pipeline", {"keep_recent": 2})  # the y axis below then changes nothing
    found = sweep(conversation, ("context_limit", [8_000, 20_000, 90_000]), ("keep_recent", [1, 5]),
                  strategy=strategy, store=OutputStore(tmp_path))
    prepared = prepare(conversation)
    for row, keep in enumerate([1, 5]):
        for column, limit in enumerate([8_000, 20_000, 90_000]):
            alone = replay(prepared, Settings(context_limit=limit, keep_recent=keep), strategy=strategy,
                           store=OutputStore(tmp_path), keep_histories=False, plain=True)
            cell = found.cells[row][column]
            assert cell == {name: alone.totals[name] for name in cell}
    assert found.grid("tokens_sent")[0] == found.grid("tokens_sent")[1]

"""The settings sweep: grid shape, every measure per cell, reused cells equal to their own replay."""

import pytest

from compaction import Settings
from compaction.errors import SettingsError
from compaction.generate import generate
from compaction.measures.registry import MEASURES
from compaction.replay.loop import replay
from compaction.sweep.grid import cell_measures
from compaction.sweep.sweeps import sweep

from .conv_builder import build, random_turns

LIMITS = [3_000, 6_000, 12_000, 25_000, 100_000_000]


@pytest.fixture(scope="module")
def session():
    return generate("realistic", turns=60, seed=3)


def test_grid_shape_and_measures(session):
    seen = []
    result = sweep(session, ("context_limit", LIMITS), ("keep_recent", [0, 3]), measure="summaries",
                   progress=lambda done, total: seen.append((done, total)))
    assert len(result.cells) == 2 and all(len(row) == len(LIMITS) for row in result.cells)
    assert all(set(cell) == set(MEASURES) for row in result.cells for cell in row)
    assert result.grid() == result.grid("summaries")
    assert result.grid("tokens_sent")[1][0] == result.cells[1][0]["tokens_sent"]
    assert seen == [(n, 10) for n in range(1, 11)]
    assert result.settings_at(1, 2) == Settings(context_limit=12_000, keep_recent=3)
    assert set(result.as_dict()) >= {"x", "y", "grid", "cells", "measure"}


@pytest.mark.parametrize("strategy", ["pipeline", "masking", "summary_keep_last"])
def test_every_cell_equals_its_own_replay(session, strategy):
    result = sweep(session, ("context_limit", LIMITS), ("keep_recent", [1, 4]), strategy=strategy)
    for row in range(2):
        for column in range(len(LIMITS)):
            alone = replay(session, result.settings_at(row, column), strategy=strategy, keep_histories=False)
            assert result.cells[row][column] == cell_measures(alone), (row, column)
    assert result.replays < 10  # the largest limits (and settings a strategy ignores) shared a replay


def test_larger_context_limit_never_more_summaries():
    # Not a theorem (compaction is path-dependent) but it held on every session tried; checked here
    # on a generated session and a session with big outputs and compact calls.
    for conversation in (generate("realistic", turns=120, seed=4),
                         build(random_turns(80, seed=5, big_every=15, compact_every=30))):
        result = sweep(conversation, ("context_limit", LIMITS), ("max_messages", [12, 50]))
        for row in result.grid("summaries"):
            assert row == sorted(row, reverse=True)
            assert row[0] > row[-1]


def test_sweeping_the_model_window_is_not_allowed_as_a_setting(session):
    with pytest.raises(SettingsError, match="unknown setting"):
        sweep(session, ("model_window", [1]), ("keep_recent", [1]))


@pytest.mark.parametrize(("x", "y", "message"), [
    (("context_limit", [0]), ("keep_recent", [1]), "context_limit must be between"),
    (("context_limit", []), ("keep_recent", [1]), "at least one value"),
    (("keep_recent", [1]), ("keep_recent", [2]), "two different settings"),
    (("max_messages", [3]), ("keep_head", [3]), "max_messages=3, keep_head=3"),
    ("context_limit", ("keep_recent", [1]), "must be \\(setting or parameter name, values\\)"),
])
def test_bad_axes(session, x, y, message):
    with pytest.raises(SettingsError, match=message):
        sweep(session, x, y)


def test_unknown_measure(session):
    with pytest.raises(SettingsError, match="unknown measure"):
        sweep(session, ("context_limit", [1_000]), ("keep_recent", [1]), measure="speed")


def test_a_sweep_spread_over_worker_processes_gives_the_same_cells():
    from compaction.generate import generate
    from compaction.sweep.parallel import open_executor

    session = generate("realistic", turns=40, parallel_share=0.4, seed=12)
    axes = (("context_limit", (5_000, 20_000, 80_000)), ("keep_recent", (0, 2, 5)))
    # a strategy the columnar kernel does not cover: the workers replay its lines
    here = sweep(session, *axes, strategy="masking")
    with open_executor(2) as executor:
        assert not executor.shares_memory  # spawned unless asked: the app's server runs threads
        spread = sweep(session, *axes, executor=executor, strategy="masking")
        # CONTEXT_LIMIT down the rows: the lines run along the other axis, the cells are the same
        transposed = sweep(session, axes[1], axes[0], executor=executor, strategy="masking")
        kernel = sweep(session, *axes, executor=executor)  # the pipeline's cells: the kernel's, here
    assert kernel.by_kernel == 9 and not kernel.left_to_loop and kernel.cells == sweep(session, *axes).cells
    assert set(spread.left_to_loop.values()) == {"the strategy has no columnar form"}
    # the first cell of each worker's first line is a task of its own: at most one more replay per worker
    assert spread.cells == here.cells and here.replays <= spread.replays <= here.replays + 2
    assert [list(row) for row in zip(*transposed.cells, strict=True)] == here.cells


def test_the_first_task_of_each_worker_is_one_cell_then_the_lines_follow_whole():
    from compaction.sweep.spread import line_parts

    assert line_parts(3, 4, 2) == [(0, 0, 1), (1, 0, 1), (0, 1, 4), (1, 1, 4), (2, 0, 4)]
    assert line_parts(1, 4, 8) == [(0, 0, 1), (0, 1, 4)]  # fewer lines than workers
    assert line_parts(3, 1, 2) == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]  # lines of one cell: nothing to split
    for lines, length, workers in ((10, 10, 2), (4, 7, 3), (1, 1, 1)):  # every cell once
        cells = [(line, k) for line, first, end in line_parts(lines, length, workers) for k in range(first, end)]
        assert sorted(cells) == [(line, k) for line in range(lines) for k in range(length)]


def test_a_worker_prepares_a_sweeps_conversation_once_for_all_its_lines():
    from compaction.measures.cost import DEFAULT_PRICES
    from compaction.model.history import prepare
    from compaction.replay.options import ReplayOptions
    from compaction.sweep.spread import _Conversation, messages_payload, sweep_line

    prepared = prepare(generate("realistic", turns=30, seed=4))
    fields = (messages_payload(prepared.originals), prepared.overhead, prepared.token_model, prepared.calibration, prepared.recorded)
    first, again, other = _Conversation(*fields, "one"), _Conversation(*fields, "one"), _Conversation(*fields, "two")
    options = ReplayOptions(model_window_tokens=200_000, prices=DEFAULT_PRICES)
    line = sweep_line(2, first, ("context_limit", [3_000, 50_000]), "keep_recent", Settings(), "pipeline", options)
    held = first.history()
    assert again.history() is held and held.shared_value("terms", lambda: None) is not None  # built by the first line
    assert sweep_line(2, again, ("context_limit", [3_000, 50_000]), "keep_recent", Settings(), "pipeline",
                      options) == line
    assert other.history() is not held and other.history().messages == prepared.originals
    assert _Conversation(*fields).history() is not _Conversation(*fields).history()  # no key: afresh
    here = sweep(prepared, ("context_limit", [3_000, 50_000]), ("keep_recent", [2]))
    assert line == (here.cells[0], here.replays)


FORKED_WORKER = """
from compaction.generate import generate
from compaction.measures.cost import DEFAULT_PRICES
from compaction.model.history import prepare
from compaction.model.settings import Settings
from compaction.sweep import spread
from compaction.replay.options import ReplayOptions
from compaction.sweep.parallel import open_executor
from compaction.sweep.sweeps import sweep

prepared = prepare(generate("realistic", turns=30, seed=4))
spread._PREPARED["shared"] = spread.warmed(prepared)
nothing = spread._Conversation(b"", prepared.overhead, prepared.token_model, prepared.calibration,
                               prepared.recorded, "shared")  # no messages: only memory shared at the fork
with open_executor(2, forked=True) as executor:
    assert executor.shares_memory
    line = executor.submit(spread.sweep_line, 2, nothing, ("context_limit", [3_000, 50_000]), "keep_recent",
                           Settings(), "pipeline", ReplayOptions(model_window_tokens=200_000,
                                                                  prices=DEFAULT_PRICES)).result()
here = sweep(prepared, ("context_limit", [3_000, 50_000]), ("keep_recent", [2]))
assert line == (here.cells[0], here.replays), (line, here.cells)
print("shared")
"""


def test_forked_workers_start_with_the_conversation_this_process_prepared():
    import subprocess
    import sys

    # its own process: forking is safe only where no other thread runs (pytest's may)
    done = subprocess.run([sys.executable, "-c", FORKED_WORKER], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "shared", done.stderr[-2000:]

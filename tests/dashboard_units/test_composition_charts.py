"""The pictures of what fills the context, built without a browser: every kind drawn once in its colour,
each bar adding up to its call's tokens with its total written past its end, the area stacked to every
call's tokens with the recorded line over both panels, and Live's bar of now split into what the next
compaction keeps and takes."""

from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.live import Follower, agent_rule, live_composition
from compaction.measures import KINDS, compositions_along, uncompacted_along
from compaction.model.history import prepare
from compaction.replay.loop import replay
from dashboard.render.composition_chart import (
    COLORS,
    ORDER,
    TAKEN,
    composition_area,
    composition_bars,
    live_bars,
)
from dashboard.render.units import compact_number
from tests.live.growing import CASES

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


@pytest.fixture(scope="module")
def replayed():
    history = prepare(load_conversation(SAMPLES / "claude_code_long_session.jsonl"))
    result = replay(history)  # the tutorial pipeline: placeholders, snips and summaries among the kinds
    return result, compositions_along(result), uncompacted_along(result)


def row_sums(figure, label) -> int:
    return sum(x for trace in figure.data if trace.type == "bar"
               for y, x in zip(trace.y, trace.x, strict=True) if y == label)


def test_every_kind_has_its_place_and_colour():
    assert sorted(ORDER) == sorted(KINDS) and set(COLORS) == set(KINDS)
    assert len(set(COLORS.values())) == len(COLORS)


def test_bars_add_up_to_each_calls_tokens_with_the_tools_apart(replayed):
    result, along, without = replayed
    last = len(result.calls) - 1
    rows = [("sent", along[last]), ("without compaction", without[last] or along[last])]
    figure = composition_bars(rows, tools=2)
    for label, found in rows:
        assert row_sums(figure, label) == found.tokens
    names = [trace.name for trace in figure.data]
    tools = [name for name in names if name.startswith("tool results: ")]
    assert len(tools) == 3 and tools[-1] == "tool results: other tools"  # the two largest and the rest
    assert names.index("system prompt and tools") < names.index("summaries") < names.index(tools[0])
    assert [a.text for a in figure.layout.annotations] == [f"<b>{compact_number(found.tokens)}</b> tokens" for _, found in rows]
    assert figure.layout.xaxis.range[1] > max(found.tokens for _, found in rows)  # room for the totals
    assert figure.layout.uniformtext.mode == "hide"  # a value that does not fit is not drawn, never cut
    assert figure.layout.yaxis.autorange == "reversed"  # the first row on top


def test_a_single_bar_names_each_kinds_tokens_in_its_legend(replayed):
    _, along, _ = replayed
    figure = composition_bars([("last call", along[-1])])
    named = {trace.name for trace in figure.data}
    assert f"system prompt and tools ({compact_number(along[-1].kinds['system_and_tools'])})" in named
    assert all(trace.x[0] > 0 for trace in figure.data)  # kinds with nothing are left out


def test_the_area_stacks_every_call_to_its_tokens_with_the_recorded_line_over_both(replayed):
    result, along, without = replayed
    recorded = [r.measures.recorded["context_tokens"] if r.measures.recorded else None for r in result.calls]
    figure = composition_area([r.call for r in result.calls], along, without, recorded, "tutorial pipeline")
    top = [trace for trace in figure.data if trace.stackgroup == "kinds1"]
    bottom = [trace for trace in figure.data if trace.stackgroup == "kinds2"]
    for position, record in enumerate(result.calls):
        assert sum(trace.y[position] for trace in top) == record.tokens
    runs = [record for record in result.calls if record.raw_runs]
    for position, record in enumerate(runs):
        assert sum(trace.y[position] for trace in bottom) == record.raw_tokens
    lines = [trace for trace in figure.data if trace.name == "recorded in the log"]
    assert len(lines) == 2 and [t.showlegend for t in lines] == [True, False]
    assert all(trace.showlegend is False for trace in bottom)  # one legend entry per kind
    assert figure.layout.yaxis2.matches == "y"  # one scale for both panels
    assert [a.text for a in figure.layout.annotations] == ["sent with tutorial pipeline", "without compaction"]


def test_live_now_is_what_the_compaction_keeps_and_takes(tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_bytes((CASES / "claude_code_growing.jsonl").read_bytes())
    follower = Follower(path)
    follower.poll()
    found = live_composition(follower.session, agent_rule(follower.session), follower.forecast())
    figure = live_bars(found)
    now, after = f"now (call {found.call:,})", "after the next compaction"
    assert row_sums(figure, now) == found.tokens and row_sums(figure, after) == sum(found.after.values())
    faded = [trace for trace in figure.data if trace.marker.opacity < 1]
    assert sum(trace.x[0] for trace in faded) == sum(found.taken.values()) > 0
    bracket = [a.text for a in figure.layout.annotations if a.text.startswith(TAKEN)]
    assert bracket == [f"{TAKEN}: {compact_number(sum(found.taken.values()))} tokens"]
    # every kind is in the legend once, by its kept part or, taken whole, by its faded one
    legend = [trace.legendgroup for trace in figure.data if trace.showlegend is not False]
    assert sorted(legend) == sorted(kind for kind in found.kinds if found.kinds[kind] or found.after[kind])

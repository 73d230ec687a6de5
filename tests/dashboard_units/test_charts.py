"""Chart builders: what the figures say, checked on engine results without a browser."""

import math
import re

import pandas as pd
import pytest

from compaction import Settings, prepare, run_pipeline
from compaction.generate import generate
from compaction.layers.fates import message_fates
from compaction.replay import replay
from dashboard.render.charts import (
    FATE_COLORS,
    FINAL_LABEL,
    fate_strip_figure,
    tool_calls_figure,
    waterfall_figure,
)
from dashboard.render.replay_chart import replay_figure

SEED_DEMO = prepare(generate("seed-demo"))


@pytest.fixture(scope="module")
def default_run():
    return run_pipeline(SEED_DEMO, Settings())


def test_waterfall_starts_at_the_input_and_steps_down_to_the_final_size(default_run):
    trace = waterfall_figure(default_run, "chars").data[0]
    sizes = [stage.size for stage in default_run.stages]
    assert list(trace.measure) == ["absolute", "relative", "relative", "relative", "relative", "total"]
    assert trace.y[0] == sizes[0]
    assert sum(trace.y[:5]) == sizes[-1] == trace.y[5]
    assert list(trace.y[1:5]) == [after - before for before, after in zip(sizes, sizes[1:], strict=False)]
    assert trace.x[0] == "Input<br><b>697.4 K</b>"  # each size under its bar, not over it
    # about 10.4 K sent (the preview quotes the store's path, whose length varies with the folder)
    assert re.fullmatch(rf"{FINAL_LABEL}<br><b>10\.[45] K</b>", trace.x[-1])
    assert not trace.text  # no figure drawn on the chart itself, where the CONTEXT_LIMIT line runs
    assert "not triggered" in trace.x[4]  # L4 did not fire at the defaults
    assert "−635.7 K" in trace.x[1]  # L3's change is written under its name


def test_waterfall_draws_context_limit_in_the_chosen_unit(default_run):
    chars = waterfall_figure(default_run, "chars")
    tokens = waterfall_figure(default_run, "tokens")
    assert chars.layout.shapes[0].y0 == 50_000
    assert tokens.layout.shapes[0].y0 == 12_500
    assert tokens.data[0].y[0] == -(-default_run.stages[0].size // 4)
    label = chars.layout.annotations[0]
    assert label.text == "CONTEXT_LIMIT<br>50,000 chars"
    assert (label.xref, label.x, label.xanchor) == ("paper", 1, "left")  # in the right margin, clear of the bars
    # one name for the limit on every page: the setting, and the tokens a call sends at it (as on Replay)
    assert tokens.layout.annotations[0].text == "CONTEXT_LIMIT<br>50,000 chars<br>≈ 12.5 K tokens<br>with the overhead"
    assert replay_figure(replay(SEED_DEMO, keep_histories=False)).layout.annotations[0].text \
        == tokens.layout.annotations[0].text.replace("<br>", " ")


def test_waterfall_log_scale():
    run = run_pipeline(SEED_DEMO, Settings(context_limit=5_000))
    figure = waterfall_figure(run, "chars", log_scale=True)
    assert figure.layout.yaxis.type == "log"
    assert figure.data[0].y[4] < 0 and "not triggered" not in figure.data[0].x[4]
    # plain numbers at powers of ten, from under the smallest bar (the summary) to over the input (697 K)
    assert list(figure.layout.yaxis.tickvals) == [100, 1_000, 10_000, 100_000, 1_000_000]
    assert list(figure.layout.yaxis.ticktext) == ["100", "1,000", "10,000", "100,000", "1,000,000"]
    assert figure.layout.annotations[0].y == pytest.approx(math.log10(5_000))  # log axes place notes by log10


def test_fate_strip_has_one_bar_per_message_coloured_by_fate(default_run):
    fates = message_fates(default_run)
    history = default_run.stages[0].history
    figure = fate_strip_figure(fates, history.sizes, [m["role"] for m in history.messages], "chars")
    shown = {trace.name.split(":")[0]: list(trace.x) for trace in figure.data}
    assert sorted(i for xs in shown.values() for i in xs) == list(range(len(fates)))
    for trace in figure.data:
        fate = trace.name.split(":")[0]
        assert trace.marker.color == FATE_COLORS[fate]
        assert all(fates[i] == fate for i in trace.x)
    assert shown["persisted"] == [122]


def test_tool_calls_figure_puts_the_most_called_on_top():
    counts = pd.DataFrame([{"tool": "read_file", "calls": 60}, {"tool": "bash", "calls": 1}])
    trace = tool_calls_figure(counts).data[0]
    assert list(trace.y) == ["bash", "read_file"]  # plotly draws the last category on top
    assert list(trace.x) == [1, 60]

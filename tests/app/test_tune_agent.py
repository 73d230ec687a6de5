"""Tune on a log of a known agent, in AppTest: it starts from that agent's own knobs (a line for Codex CLI's
auto-compact limit, a grid for Claude Code's buffer and window), says how the cells' cost stands against
what the agent paid and where a knob makes no difference, and exports the picked point in the agent's
own form; the tutorial pipeline's grid is the other choice."""

import tomllib

import pytest

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import build

from .codex_rollout import write_rollout
from .conftest import SAMPLES, chart_spec, open_page, start_app
from .test_conversation_page import upload


def tune_on(path):
    at = upload(start_app(), path.name, path.read_bytes())
    assert not at.exception and not at.error
    return open_page(at, "tune")


def values_box(at, param):
    return next(box for box in at.text_input if box.label.startswith(f"{param} values"))


def infos(at) -> list[str]:
    return [element.value for element in at.info]


@pytest.fixture(scope="module")
def rollout(tmp_path_factory):
    return write_rollout(tmp_path_factory.mktemp("codex") / "rollout-2026-04-01T00-00-00-019d47a1.jsonl", calls=25)


def test_a_codex_log_starts_from_codex_and_draws_its_limit_as_a_line(rollout):
    at = tune_on(rollout)
    assert not at.exception and not at.error
    assert at.radio(key="tune_what_codex").value == "codex"
    limits = [int(text) for text in values_box(at, "auto_compact_token_limit").value.split(", ")]
    assert limits == sorted(limits) and len(limits) >= 5
    [chart] = [spec for spec in (chart_spec(at, index) for index in range(len(at.get("plotly_chart"))))
               if spec["layout"]["xaxis"]["title"]["text"] == "auto_compact_token_limit"]
    assert chart["data"][0]["type"] == "scatter" and len(chart["data"][0]["x"]) == len(limits)
    assert not any(trace["type"] == "heatmap" for index in range(len(at.get("plotly_chart")))
                   for trace in chart_spec(at, index)["data"])
    # the chart's caption says how its cells were computed: by the kernel, by the loop, how many
    assert any(text in (f"All {len(limits)} settings computed by the columnar kernel: the figures of their replays "
                        "of all 25 calls, without replaying.",
                        f"The loop replayed all 25 calls for {len(limits)}: the strategy has no columnar form.")
               for text in (caption.value for caption in at.caption))
    [config] = [block.value for block in at.code if block.value.startswith("# Codex CLI")]
    keys = tomllib.loads(config)
    # at first the agent's own point is exported: 90 % of the window, the last of the values
    assert keys["model_auto_compact_token_limit"] == keys["model_context_window"] * 9 // 10 == limits[-1]
    # like for like: set against Codex's own setting replayed on the same calls (its default cell), the log's
    # recorded cost beside it
    conversation = load_conversation(rollout)
    paid = replay(conversation, strategy="as-recorded").totals["recorded_cost_usd"]
    own = replay(conversation, strategy=build("codex", {"window_tokens": 272_000}), keep_histories=False).totals
    [sentence] = [text for text in infos(at) if "replayed on the same calls" in text]
    assert f"Codex CLI's own setting (window_tokens 272,000), replayed on the same calls (${own['cost_usd']:,.2f})" \
        in sentence and sentence.endswith(f"Its log records ${paid:,.2f}.")


def test_codex_values_typed_are_swept_and_the_first_exported_when_its_own_is_not_among_them(rollout):
    at = tune_on(rollout)
    values_box(at, "auto_compact_token_limit").set_value("100000, 160000, 170000").run()
    assert not at.exception and not at.error
    [config] = [block.value for block in at.code if block.value.startswith("# Codex CLI")]
    assert tomllib.loads(config)["model_auto_compact_token_limit"] == 100_000
    assert any(text.startswith("**Take it to Codex CLI:** auto_compact_token_limit 100,000") for text in
               (element.value for element in at.markdown))
    # the session peaks near 146,000 tokens: the two larger limits are never reached
    assert any("auto_compact_token_limit makes no difference from 160,000 up: Codex CLI never compacts there." in text
               for text in infos(at))
    values_box(at, "auto_compact_token_limit").set_value("100000, lots").run()
    assert any("auto_compact_token_limit must be a whole number" in error.value for error in at.error)


def test_the_tutorial_pipeline_is_the_other_choice(rollout):
    at = tune_on(rollout)
    at.radio(key="tune_what_codex").set_value("pipeline").run()
    assert not at.exception
    assert any(trace["type"] == "heatmap" for trace in chart_spec(at, 0)["data"])
    assert at.button(key="tune_apply") is not None
    assert any("Codex CLI's own setting (window_tokens 272,000), replayed on the same calls" in text
               for text in infos(at))


def test_the_long_claude_code_log_gets_a_grid_of_its_buffer_and_window():
    at = tune_on(SAMPLES / "claude_code_long_session.jsonl")
    assert at.radio(key="tune_what_claude-code").value == "claude-code"
    assert values_box(at, "window_tokens").value.endswith("200000")
    # a smaller grid than the default's 35 cells, to keep the test short
    values_box(at, "buffer_tokens").set_value("13000").run()
    values_box(at, "window_tokens").set_value("200000").run()
    assert not at.exception and not at.error
    heatmap = chart_spec(at, 0)["data"][0]
    assert heatmap["type"] == "heatmap" and heatmap["x"] == ["13,000"] and heatmap["y"] == ["200,000"]
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    own = replay(conversation, strategy=build("claude-code", {"window_tokens": 200_000}), keep_histories=False).totals
    # the one cell is Claude Code's own setting: it costs what that setting replayed costs, like for like
    assert infos(at)[0] == (
        f"No setting here costs less than Claude Code's own setting (window_tokens 200,000), replayed on the same "
        f"calls (${own['cost_usd']:,.2f}): the cheapest (buffer_tokens 13,000, window_tokens 200,000) costs "
        f"${own['cost_usd']:,.2f}. Its log records ${own['recorded_cost_usd']:,.2f}.")
    [environment] = [block.value for block in at.code if block.value.startswith("# Claude Code")]
    assert "nothing to export" in environment  # Claude Code's own threshold
    values_box(at, "buffer_tokens").set_value("40000").run()
    values_box(at, "window_tokens").set_value("150000").run()
    [environment] = [block.value for block in at.code if block.value.startswith("# Claude Code")]
    assert "export CLAUDE_CODE_AUTO_COMPACT_WINDOW=150000" in environment
    assert "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=" in environment


def test_an_aider_history_with_usage_for_some_calls_says_so(tmp_path):
    """Issue 37: "the agent paid" covered 2 of this history's 4 calls without saying so."""
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes((SAMPLES.parent / "tests" / "importers" / "cases" / "valid" / "aider_clear_and_commands.md")
                     .read_bytes())
    at = tune_on(path)
    assert not at.exception
    [sentence] = [text for text in infos(at) if "replayed on the same calls" in text]
    assert "less than Aider's own setting (window_tokens " in sentence
    assert "for 2 of its 4 calls (the other 2 recorded no usage), so that figure covers only those; the replays " \
           "cover all. Over those 2 calls the setting replayed costs $" in sentence

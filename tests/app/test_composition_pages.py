"""What fills the context on the pages that show it (AppTest): the Conversation page's last call with the
figures `compaction composition FILE` gives, a self-compacted log beside its never-compacted call, the
Replay page's stacked area and the call picked, and the Live page's context now."""

import json
from pathlib import Path

from compaction.cli import main as cli
from compaction.importers import load_conversation

from .conftest import SAMPLES, chart_spec, metrics, open_page, start_app

CASE = Path(__file__).resolve().parents[1] / "live" / "cases" / "claude_code_growing.jsonl"


def charts(at) -> list[dict]:
    return [chart_spec(at, index) for index in range(len(at.get("plotly_chart")))]


def bar_chart(at, first_row: str) -> dict:
    """The composition bars whose first row's label starts with `first_row`."""
    [found] = [spec for spec in charts(at) if spec["data"] and spec["data"][0].get("type") == "bar"
               and spec["data"][0].get("orientation") == "h" and str(spec["data"][0]["y"][0]).startswith(first_row)]
    return found


def row_totals(spec: dict) -> dict[str, int]:
    totals: dict[str, int] = {}
    for trace in spec["data"]:
        for label, value in zip(trace["y"], trace["x"], strict=True):
            if label is not None:
                totals[label] = totals.get(label, 0) + (value or 0)
    return totals


def cli_json(capsys, path: Path) -> dict:
    capsys.readouterr()
    assert cli.main(["composition", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def load(at, sample: str):
    at.selectbox(key="sample_choice").set_value(sample).run()
    return at.button(key="load_sample").click().run()


def test_the_conversation_page_shows_the_last_call_as_the_command_line_does(app, capsys):
    assert not app.exception
    spec = bar_chart(app, "last call")
    expected = cli_json(capsys, SAMPLES / "seed_demo.json")
    rows = row_totals(spec)
    assert list(rows)[0] == f"last call ({expected['calls']}), as the log sent it"
    assert rows[list(rows)[0]] == expected["total_tokens"] == sum(expected["kinds"].values())
    # the default sample ends on the huge output the model has not answered: the next call, with it
    assert list(rows)[1] == "the next call, with the 1 message after it" and rows[list(rows)[1]] > 10 * expected["total_tokens"]
    names = {trace["name"] for trace in spec["data"]}
    assert {"tool results: read_file", "tool results: bash", "tool calls"} <= names
    assert any(c.value.startswith("The last model call sends") for c in app.caption)


def test_a_log_that_compacted_itself_beside_the_same_call_never_compacted(app, capsys):
    at = load(app, "claude_code_long_session.jsonl")
    assert not at.exception
    spec = bar_chart(at, "last call")
    rows = row_totals(spec)
    expected = cli_json(capsys, SAMPLES / "claude_code_long_session.jsonl")
    sent, never = list(rows)
    assert never == "the same call, never compacted"
    assert rows[sent] == expected["recorded_context_tokens"] == expected["total_tokens"]
    assert rows[never] > rows[sent]
    summaries = next(trace for trace in spec["data"] if trace["name"] == "summaries")
    assert summaries["x"][0] > 0 and summaries["x"][1] == 0  # the agent's summary only in what it sent


def test_the_replay_page_stacks_every_call_and_shows_the_one_picked(app):
    at = open_page(load(app, "claude_code_long_session.jsonl"), "replay")
    assert not at.exception
    [area] = [spec for spec in charts(at) if any(trace.get("stackgroup") == "kinds1" for trace in spec["data"])]
    top = [trace for trace in area["data"] if trace.get("stackgroup") == "kinds1"]
    calls = len(top[0]["y"])
    assert calls == sum(1 for m in load_conversation(SAMPLES / "claude_code_long_session.jsonl").messages
                        if m["role"] == "assistant")
    last_sent = sum(trace["y"][-1] for trace in top)
    picked = bar_chart(at, f"call {calls:,}, sent")  # the newest call is the one picked at first
    assert row_totals(picked)[f"call {calls:,}, sent"] == last_sent
    assert any(trace["name"] == "recorded in the log" for trace in area["data"])
    at.number_input(key="replay_call").set_value(100).run()
    assert not at.exception
    assert row_totals(bar_chart(at, "call 100, sent"))["call 100, sent"] == sum(trace["y"][99] for trace in top)


def test_the_live_page_shows_the_context_now_and_after_the_next_compaction(tmp_path):
    path = tmp_path / "5f0e2c1a.jsonl"
    path.write_bytes(CASE.read_bytes())
    at = open_page(start_app(), "live")
    at.text_input(key="live_path").set_value(str(path))
    at = at.button(key="live_follow").click().run()
    assert not at.exception
    spec = bar_chart(at, "now (call")
    rows = row_totals(spec)
    now = next(label for label in rows if label.startswith("now"))
    assert f"{rows[now]:,}" == metrics(at)["Tokens in context now"]
    assert rows["after the next compaction"] < rows[now]
    assert any("the next compaction takes" in annotation["text"] for annotation in spec["layout"]["annotations"])


def test_one_numbering_and_one_never_compacted_figure_on_conversation_replay_and_the_cli(app, capsys):
    """Issue 37: the CLI, its JSON and the pages number the last call alike (the CLI said "call 319 of 0-319"
    where the page says "last call (320)"), and Conversation and Replay give the same tokens for it had it
    never been compacted (403,173 against 403,335 here: the page estimated it afresh, the replay measured
    it from the last call the log recorded)."""
    at = load(app, "claude_code_long_session.jsonl")
    expected = cli_json(capsys, SAMPLES / "claude_code_long_session.jsonl")
    assert expected["call"] == expected["calls"] == 320
    assert cli.main(["composition", str(SAMPLES / "claude_code_long_session.jsonl")]) == 0
    assert "; call 320 of 320 (" in capsys.readouterr().out
    rows = row_totals(bar_chart(at, "last call"))
    assert list(rows) == ["last call (320), as the log sent it", "the same call, never compacted"]
    assert cli.main(["replay", str(SAMPLES / "claude_code_long_session.jsonl"), "--json"]) == 0
    last = json.loads(capsys.readouterr().out)["calls"][-1]
    assert last["call"] == 320 and rows["the same call, never compacted"] == last["raw_tokens"] == 403_335

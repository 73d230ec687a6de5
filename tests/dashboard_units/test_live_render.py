"""The Live page's words, rows and chart, built without Streamlit from a followed hand-written log."""

import pytest

from compaction.live.follower import Follower
from compaction.live.forecast import forecast
from compaction.live.rules import rule_for
from dashboard.render.live_chart import live_figure
from dashboard.render.live_text import calls_rows, distance_sentence, forecast_sentences, reads_sentence
from dashboard.render.time_charts import BOUNDARY_NAME
from tests.live.growing import CASES


@pytest.fixture
def follower(tmp_path):
    path = tmp_path / "session.jsonl"
    lines = (CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:20]))
    found = Follower(path)
    found.poll()
    with open(path, "ab") as handle:
        handle.write(b"".join(lines[20:]))
    found.poll()
    return found


def test_the_forecast_in_words(follower):
    sentences = forecast_sentences(follower.forecast())
    # nine growths of history: too few for 80 % (pace.SHORT), so the range is wider and says so
    assert sentences[0] == ("Claude Code 2.1.128 compacts at 167,000 tokens: 131,134 tokens to go, in about 8 calls "
                            "(wider, from only 9 calls of history: between 3 and 20), counted by replaying the session's "
                            "last growths (on average 17,000 tokens per call).")
    assert sentences[1].startswith("It summarises the whole conversation")
    assert "The summary's size: the log's last summary (characters / 4)" in sentences[1]
    assert "What it carries on with: what this session's last compaction carried on with" in sentences[1]
    assert sentences[2].startswith("The compaction's own call costs about $") and "1-hour writes" in sentences[2]
    assert "reads the system prompt and tools (14,091 tokens) from the cache" in sentences[2]


def test_no_call_yet_and_a_context_over_the_threshold(follower, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    quiet = Follower(empty)
    quiet.poll()
    assert quiet.session is None and reads_sentence(quiet.source) == "Nothing read yet."
    path = tmp_path / "up_to_call_8.jsonl"
    path.write_bytes(b"".join((CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)[:24]))
    late = Follower(path)
    late.poll()
    over = forecast(late.session, rule_for("anthropic-compact", {"trigger": 150_000}, late.session))
    assert distance_sentence(over).endswith("it compacts before the next call.")


def test_the_newest_calls_first(follower):
    rows = calls_rows(follower.session, count=3)
    assert [row["call"] for row in rows] == [11, 10, 9]
    assert rows[0]["growth"] == 3_000 and rows[-1]["compactions before"] == 1


def test_the_reads_say_where_each_started_and_ended(follower):
    text = reads_sentence(follower.source)
    first, second = follower.source.reads
    assert f"read 1: bytes 0 to {first.end:,} (20 new lines)" in text
    assert f"read 2: bytes {first.end:,} to {second.end:,}" in text
    assert text.endswith("Read from the start again: 0 times.")


def test_the_chart_draws_the_calls_the_thresholds_and_the_compaction(follower):
    agent = follower.forecast()
    what_if = forecast(follower.session, rule_for("codex", {}, follower.session))
    figure = live_figure(follower.session, agent, what_if)
    names = [trace.name for trace in figure.data]
    assert names[0] == "context of each call (recorded)" and len(figure.data[0].x) == 11
    assert "the agent compacts here: Claude Code 2.1.128" in names
    assert "the what-if compacts here: Codex CLI" in names
    assert [shape.x0 for shape in figure.layout.shapes] == [8.5]  # the compaction, after call 8
    assert BOUNDARY_NAME in names  # named in the legend


def test_the_reads_name_only_the_newest_few_and_say_so(follower):
    text = reads_sentence(follower.source, shown=1)
    last = follower.source.reads[-1]
    assert text.startswith(f"Reads of the file (the last 1 of {last.number:,}; only reads that found something new")
    assert f"read {last.number:,}: bytes {last.start:,} to {last.end:,}" in text and "read 1:" not in text


def test_an_openai_models_cost_is_told_in_its_providers_words():
    # a Codex CLI rollout of gpt-5.4-mini: OpenAI bills cached input lower and charges nothing to write it
    codex = Follower(CASES.parent.parent / "importers" / "cases" / "valid" / "codex_compaction.jsonl")
    codex.poll()
    sentence = forecast_sentences(codex.forecast())[-1]
    assert "uncached (cached with no charge for the write)" in sentence
    assert "5-minute" not in sentence and "1-hour" not in sentence

"""Replay and Tune show what compaction costs and loses, beside what it saves (AppTest)."""

import json

from compaction.importers import load_conversation
from compaction.model.settings import Settings
from compaction.replay.loop import replay
from dashboard.render.replay_chart import STOP_TEXT
from dashboard.render.time_charts import RECORDED_NAME
from dashboard.render.units import compact_number

from .conftest import SAMPLES, chart_spec, metrics, open_page


def _load_sample(app, name: str):
    app.selectbox(key="sample_choice").set_value(name)
    app.button(key="load_sample").click().run()


def test_replay_shows_cost_cache_and_loss_and_says_how_tokens_are_counted(app):
    at = open_page(app, "replay")
    assert not at.exception
    shown = metrics(at)
    assert shown["Cost (all calls)"].startswith("$")
    assert shown["Read from the cache"].endswith("%") and shown["Blind references"] == "0"
    assert shown["Artifacts, last call"].endswith("%")
    assert shown["Recorded in the log"] == "–"  # the demo records no usage
    assert any("No recorded usage in this file" in caption.value for caption in at.caption)


def test_prices_are_the_logs_unless_you_set_yours(app):
    at = open_page(app, "replay")
    before = metrics(at)["Cost (all calls)"]
    assert at.radio(key="PRICES").value == "log"
    assert "PRICE_INPUT" not in [n.key for n in at.number_input]  # as the log says: no price to type
    assert any("Priced at today's defaults, as the conversation names no model" in c.value for c in at.caption)
    at.radio(key="PRICES").set_value("own").run()
    at.number_input(key="PRICE_INPUT").set_value(30.0).run()
    assert not at.exception
    after = metrics(at)["Cost (all calls)"]
    assert float(after.lstrip("$").replace(",", "")) > float(before.lstrip("$").replace(",", ""))
    assert any("Priced at your prices: $30.00 input" in c.value for c in at.caption)
    at = open_page(at, "compare")  # the same choice on Compare
    assert at.radio(key="PRICES").value == "own" and at.number_input(key="PRICE_INPUT").value == 30.0


def test_a_claude_code_log_shows_what_the_agent_really_sent_and_where_it_would_stop(app):
    _load_sample(app, "claude_code_long_session.jsonl")
    at = open_page(app, "replay")
    assert not at.exception
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    recorded = sum(u["input_tokens"] + u["cache_creation_input_tokens"] + u["cache_read_input_tokens"]
                   for u in conversation.usage if u)
    assert metrics(at)["Recorded in the log"] == compact_number(recorded)
    captions = " ".join(caption.value for caption in at.caption)
    assert "Tokens calibrated on what this log recorded" in captions and "Check of the cache model" in captions
    assert any("Without compaction the agent stops at call 156 of 320" in m.value for m in at.markdown)
    assert "What this session cost: $" in captions and "claude-sonnet-4-5 (320 calls)" in captions
    names = [trace.get("name") for trace in chart_spec(at)["data"]]
    assert RECORDED_NAME in names and STOP_TEXT in names
    fidelity = at.table[0].value
    assert fidelity["the log compacted before call"].tolist() == ["133", "261"]


def test_a_call_that_named_what_it_no_longer_saw_lists_those_names(app):
    _load_sample(app, "realistic_session.json")
    for key, value in (("KEEP_RECENT", 0), ("MAX_MESSAGES", 10), ("CONTEXT_LIMIT", 2_000)):
        app.number_input(key=key).set_value(value).run()
    at = open_page(app, "replay")
    assert not at.exception
    expected = replay(load_conversation(SAMPLES / "realistic_session.json"),
                      Settings(keep_recent=0, max_messages=10, context_limit=2_000), keep_histories=False)
    call = next(c for c in expected.calls if c.blind_references)
    at.number_input(key="replay_call").set_value(call.call + 1).run()
    warning = next(w.value for w in at.warning if "no longer saw" in w.value)
    assert all(f"`{term}`" in warning for term in call.blind_references)


def test_probe_questions_need_a_key_and_then_ask_claude(app, fake_anthropic, monkeypatch):
    at = open_page(app, "replay")
    assert at.button(key="run_probes").disabled
    assert any("Needs an Anthropic API key" in info.value for info in at.info)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-probes")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    questions = [{"kind": k, "question": f"{k}?", "answer": f"{k} answer"}
                 for k in ("recall", "artifact", "continuation", "decision")]
    fake_anthropic.reply(json.dumps(questions))
    fake_anthropic.reply(json.dumps([{"kind": q["kind"], "answer": "from what was sent"} for q in questions]))
    fake_anthropic.reply(json.dumps([{"kind": q["kind"], "score": 5, "reason": "right"} for q in questions]))
    at.run()
    at.button(key="run_probes").click().run()
    assert not at.exception
    assert metrics(at)["Answered from the compacted context"] == "100 %"
    table = at.dataframe[-1].value
    assert list(table["kind"]) == ["recall", "artifact", "continuation", "decision"]


def test_tune_offers_cost_and_loss_and_draws_the_trade_off(app):
    at = open_page(app, "tune")
    assert not at.exception
    at.selectbox(key="tune_measure").set_value("cost_usd").run()
    assert at.subheader[0].value == "Cost with prompt caching (US$)"
    trade_off = chart_spec(at, 1)
    names = [trace.get("name") for trace in trade_off["data"]]
    assert names[:2] == ["a pair of settings", "no other pair does better on both"]
    assert len(trade_off["data"][0]["x"]) == 100  # every cell of the 10 x 10 grid is a point


def test_tune_says_the_columnar_kernel_computed_the_pairs(app):
    at = open_page(app, "tune")
    assert not at.exception
    assert any(caption.value.endswith("All 100 pairs computed by the columnar kernel: the figures of their replays "
                                      "of all 61 calls, without replaying.") for caption in at.caption)

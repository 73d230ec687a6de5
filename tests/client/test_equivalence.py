"""The compacting client does in production what the replay predicted: for the tutorial's pipeline and peer
presets, on the bundled samples, every request the client sends through the real anthropic SDK (received
by the local Messages API) is the replay's history at that call, with the same size and tokens; the
compaction points (what acted before each call, the reactive compactions) are the same, and the trace
reads back as a session with the usage the API answered. And for every strategy, against an API that counts
otherwise than the client's token model, a replay of the client's own trace sends what the client sent."""

import json

import pytest

from compaction.client import CompactingClient
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.importers.trace import read_trace
from compaction.model.conversation import Conversation
from compaction.model.settings import DEFAULTS
from compaction.model.tokens import TokenModel
from compaction.replay.loop import replay
from compaction.storage.outputs import OutputStore
from compaction.strategies import REGISTRY, build
from tests.client.compare import assert_same_calls, assert_trace_matches
from tests.client.scripted import ScriptedModel, drive, sdk
from tests.engine.conv_builder import build as build_conversation
from tests.engine.conv_builder import random_turns

SAMPLES = pytest.importorskip("compaction.samples").__path__[0]

# (sample, strategy, its parameters, the tutorial's settings, model window): each acts on its sample
CASES = [
    ("seed_demo.json", "pipeline", {}, {}, 200_000),
    ("realistic_session.json", "pipeline", {}, {}, 200_000),
    ("anthropic_request.json", "pipeline", {}, {"context_limit": 6_000, "keep_recent": 1, "max_messages": 8}, 200_000),
    ("openai_chat.json", "pipeline", {}, {"context_limit": 4_000}, 200_000),
    ("realistic_session.json", "anthropic-clear-tool-uses", {"trigger": 60_000, "keep": 4}, {}, 200_000),
    ("anthropic_request.json", "langchain-summarization", {"trigger_tokens": 2_500, "keep_messages": 6}, {}, 200_000),
    ("anthropic_request.json", "openhands-amortized", {"max_size": 12, "keep_first": 1}, {}, 200_000),
    ("openai_chat.json", "codex", {"window_tokens": 3_000}, {}, 200_000),
    # a small model window: the API refuses a request, the client compacts reactively and retries
    ("anthropic_request.json", "summary_keep_last", {}, {}, 3_000),
    ("openai_chat.json", "masking", {"window": 1}, {}, 1_800),
]


@pytest.mark.parametrize("sample, strategy, params, settings, window", CASES,
                         ids=[f"{c[1]}-{c[0].split('.')[0]}" for c in CASES])
def test_the_client_sends_what_the_replay_predicted(fake_anthropic, tmp_path, sample, strategy, params, settings,
                                                    window):
    conversation = load_conversation(f"{SAMPLES}/{sample}")
    store = OutputStore(tmp_path / "store")  # the same folder: L3's markers name the same files
    result = replay(conversation, DEFAULTS.replace(**settings), store=store, strategy=build(strategy, params),
                    model_window_tokens=window)
    assert any(call.acted for call in result.calls), "the case must make the strategy act"
    assert result.totals["reactive"] > 0 or window == 200_000, "a small window must refuse some request"
    assert not result.totals["over_window_calls"]
    model = ScriptedModel(conversation, window)
    fake_anthropic.respond_with(model)
    client = CompactingClient(sdk(fake_anthropic), strategy=strategy, settings={**settings, **params}, store=store,
                              trace=tmp_path / "trace.jsonl")
    assert drive(client, conversation) == len(result.calls)
    assert assert_same_calls(result, fake_anthropic, model) == len(result.calls)
    assert_trace_matches(tmp_path / "trace.jsonl", result, model)


def test_the_compact_tool_compacts_where_the_replay_did(fake_anthropic, tmp_path):
    messages = build_conversation(random_turns(40, seed=3, big_every=0, compact_every=9))
    store = OutputStore(tmp_path / "store")
    result = replay(messages, store=store)
    assert sum("compact_tool" in call.acted for call in result.calls) >= 3
    model = ScriptedModel(messages)
    fake_anthropic.respond_with(model)
    client = CompactingClient(sdk(fake_anthropic), store=store, trace=tmp_path / "trace.jsonl")
    drive(client, Conversation(messages))
    assert_same_calls(result, fake_anthropic, model)
    assert_trace_matches(tmp_path / "trace.jsonl", result, model)


def test_a_replay_of_the_trace_puts_the_summaries_where_the_client_did(fake_anthropic, tmp_path):
    """Loading the trace back closes the loop: replayed with the same strategy and settings, the session's
    own compactions (the client's) fall on the calls where the replay summarises, and every call's recorded
    tokens are what the replay estimates."""
    conversation = load_conversation(f"{SAMPLES}/anthropic_request.json")
    settings = {"context_limit": 8_000}
    store = OutputStore(tmp_path / "store")
    model = ScriptedModel(conversation, 3_000)
    fake_anthropic.respond_with(model)
    client = CompactingClient(sdk(fake_anthropic), strategy="summary_keep_last", settings=settings, store=store,
                              trace=tmp_path / "trace.jsonl")
    drive(client, conversation)
    session = load_conversation(tmp_path / "trace.jsonl")
    again = replay(session, DEFAULTS.replace(**settings), strategy="summary_keep_last", model_window_tokens=3_000,
                   store=store)
    boundary_calls = [b["call"] for b in again.boundaries]
    summary_calls = [c.call for c in again.calls if c.summaries > (again.calls[c.call - 1].summaries if c.call else 0)]
    assert boundary_calls and boundary_calls == summary_calls[:len(boundary_calls)]
    recorded = [c.measures.recorded["context_tokens"] for c in again.calls if c.measures.recorded]
    assert recorded == [u["input_tokens"] for u in model.usage][:len(recorded)]


# The API counts otherwise than the client's token model (0.31 tokens a character and 1,500 of its own a
# call, against characters / 4): each strategy at parameters that make it act on the generated session
# (60 calls, growing to about 70,000 tokens as this API counts them)
API_COUNT = TokenModel(tokens_per_char=0.31, overhead_tokens=1_500, calibrated=True)
ACTING = {"summary_keep_last": {"trigger": 30_000}, "anthropic-clear-tool-uses": {"trigger": 30_000},
          "anthropic-compact": {"trigger": 50_000}, "langchain-summarization": {"trigger_tokens": 30_000,
                                                                            "keep_messages": 10},
          "langchain-clear-tool-uses": {"trigger": 30_000}, "claude-code": {"window_tokens": 80_000},
          "codex": {"window_tokens": 50_000}, "gemini-cli": {"window_tokens": 80_000},
          "openhands-masking": {"attention_window": 10}, "openhands-recent": {"max_events": 20},
          "openhands-amortized": {"max_size": 20}, "openhands-llm": {"max_size": 30},
          "openhands-pipeline": {"max_size": 30}, "opencode": {"context_limit_tokens": 40_000},
          "crush": {"window_tokens": 50_000}, "goose": {"window_tokens": 50_000}, "pi": {"window_tokens": 50_000},
          "copilot-cli": {"window_tokens": 50_000}, "cline": {"max_allowed_tokens": 40_000},
          "roo-code": {"window_tokens": 80_000, "condense_percent": 50},
          "kilo-code": {"window_tokens": 80_000, "condense_percent": 50}}
NEVER_ACTS = {"as-recorded": "it follows a log's own compactions, and the client's session has none yet",
              "anthropic-clear-thinking": "the generated session has no thinking blocks"}


@pytest.mark.parametrize("strategy", sorted(REGISTRY))
def test_a_replay_of_the_clients_own_trace_sends_what_the_client_sent(fake_anthropic, tmp_path, strategy):
    """The client counts each call as a replay of its trace does (the last response's usage as the API
    answered it, plus the estimate of what was added since), so the replay makes the same decisions call for
    call: every request the client sent is the replay's history at that call, and what acted is the same."""
    conversation = Conversation(generate("realistic", turns=60, seed=5))
    params = ACTING.get(strategy, {})
    store = OutputStore(tmp_path / "store")
    fake_anthropic.respond_with(ScriptedModel(conversation, 10_000_000, API_COUNT))
    client = CompactingClient(sdk(fake_anthropic), strategy=strategy, params=params, store=store,
                              trace=tmp_path / "trace.jsonl")
    assert drive(client, conversation) == 60
    sent = [body["messages"] for body in fake_anthropic.answered(200)]
    session = load_conversation(tmp_path / "trace.jsonl")
    again = replay(session, DEFAULTS, strategy=build(strategy, params), store=store, model_window_tokens=10_000_000)
    assert len(again.calls) == len(sent) == 60
    for record, body in zip(again.calls, sent, strict=True):
        assert again.history(record.call).messages == body, f"{strategy}, call {record.call}: the requests differ"
    traced = read_trace(tmp_path / "trace.jsonl")
    assert [call.acted for call in traced.calls] == [record.acted for record in again.calls]
    # the count each call decided on is the one the trace reader works out again from the API's usage
    assert [count for _, count, _ in session.metadata["decision_counts"]] == \
        [json.loads(line)["before_tokens"] for line in (tmp_path / "trace.jsonl").read_text().splitlines()[1:]]
    if strategy not in NEVER_ACTS:
        assert any(record.acted for record in again.calls), f"{strategy} must act on the case"

"""What fills a call's context, by kind: hand-built messages whose every block's size is known, each kind
found where it is, the characters summing to what the replay measures, the tokens to what it counts."""

from collections import Counter
from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.layers.persist import persisted_marker
from compaction.measures.composition import (
    IMAGES,
    KINDS,
    LIST_FRAME,
    NOT_IN_LOG,
    PERSON,
    PLACEHOLDERS,
    PREVIEWS,
    REPLIES,
    SUMMARIES,
    SYSTEM,
    THINKING,
    TOOL_CALLS,
    TOOL_RESULTS,
    composer_of,
    message_parts,
)
from compaction.measures.composition_tokens import (
    call_composition,
    compositions_along,
    from_chars,
    history_composition,
    sent_composition,
    shares,
    uncompacted_along,
)
from compaction.model.conversation import Conversation
from compaction.model.history import prepare
from compaction.model.markers import COMPACTED_PREFIX, MASK, PLACEHOLDER
from compaction.model.settings import DEFAULTS
from compaction.model.tokens import TokenModel
from compaction.replay.loop import replay
from tests.engine.builders import turns

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
THINK = {"type": "thinking", "thinking": "t" * 300, "signature": "s" * 40}
SAY = {"type": "text", "text": "r" * 50}
USE_BASH = {"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "c" * 80}}
USE_READ = {"type": "tool_use", "id": "r1", "name": "Read", "input": {"file_path": "p" * 20}}
BASH_OUT = {"type": "tool_result", "tool_use_id": "b1", "content": "o" * 1_000}
READ_OUT = {"type": "tool_result", "tool_use_id": "r1", "content": [{"type": "text", "text": "f" * 400}]}
CLEARED = {"type": "tool_result", "tool_use_id": "b1", "content": PLACEHOLDER}
PREVIEW = {"type": "tool_result", "tool_use_id": "b1", "content": persisted_marker("/tmp/x.txt", "o" * 5_000, 200)}


def size(value) -> int:
    return len(str(value))


def frame(message: dict) -> int:
    """Characters of a message that are in none of its blocks: the role, the braces, the separators."""
    return size(message) + LIST_FRAME - sum(size(block) for block in message["content"])


def parts(message: dict) -> dict:
    return dict(message_parts(message, size(message), {"b1": "Bash", "r1": "Read"}.get))


def test_each_block_is_its_kind_and_the_frame_goes_to_the_largest():
    reply = {"role": "assistant", "content": [THINK, SAY, USE_BASH, USE_READ]}
    assert parts(reply) == {(THINKING, None): size(THINK) + frame(reply), (REPLIES, None): size(SAY),
                            (TOOL_CALLS, None): size(USE_BASH) + size(USE_READ)}
    answers = {"role": "user", "content": [BASH_OUT, READ_OUT, {"type": "text", "text": "go on"}]}
    assert parts(answers) == {(TOOL_RESULTS, "Bash"): size(BASH_OUT) + frame(answers),
                              (TOOL_RESULTS, "Read"): size(READ_OUT),
                              (PERSON, None): size({"type": "text", "text": "go on"})}
    assert sum(parts(answers).values()) == size(answers) + LIST_FRAME


def test_images_are_their_own_kind_in_the_persons_turn_and_inside_a_tool_result():
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "i" * 2_000}}
    shown = {"role": "user", "content": [image, {"type": "text", "text": "what is wrong here?"}]}
    assert parts(shown) == {(IMAGES, None): size(image) + frame(shown),
                            (PERSON, None): size({"type": "text", "text": "what is wrong here?"})}
    screenshot = {"type": "tool_result", "tool_use_id": "r1", "content": [{"type": "text", "text": "ok"}, image]}
    read = {"role": "user", "content": [screenshot]}
    assert parts(read) == {(TOOL_RESULTS, "Read"): size(screenshot) - size(image),
                           (IMAGES, None): size(image) + frame(read)}


def test_placeholders_previews_summaries_and_snip_markers():
    kept = {"role": "user", "content": [CLEARED, PREVIEW]}
    assert parts(kept) == {(PLACEHOLDERS, None): size(CLEARED), (PREVIEWS, None): size(PREVIEW) + frame(kept)}
    masked = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1", "content": MASK}]}
    assert list(parts(masked)) == [(PLACEHOLDERS, None)]
    # an agent's own text for a cleared result is registered by its package (Claude Code's microcompact)
    microcompacted = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1",
                                                   "content": "[Old tool result content cleared]"}]}
    assert list(parts(microcompacted)) == [(PLACEHOLDERS, None)]
    summary = {"role": "user", "content": f"{COMPACTED_PREFIX}\n\nwhat happened"}
    assert parts(summary) == {(SUMMARIES, None): size(summary) + LIST_FRAME}
    snipped = {"role": "user", "content": "[snipped 40 messages]"}
    assert parts(snipped) == {(PLACEHOLDERS, None): size(snipped) + LIST_FRAME}
    person = {"role": "user", "content": "fix the tests"}
    assert parts(person) == {(PERSON, None): size(person) + LIST_FRAME}
    # a message the log marks as the agent's summary is one, whatever its words
    assert dict(message_parts(person, size(person), str, summary=True)) == {(SUMMARIES, None): size(person) + 2}


def conversation() -> list[dict]:
    return [{"role": "user", "content": "fix the tests"},
            {"role": "assistant", "content": [THINK, SAY, USE_BASH, USE_READ]},
            {"role": "user", "content": [BASH_OUT, READ_OUT]},
            {"role": "assistant", "content": [SAY]}]


def test_the_characters_of_a_history_are_what_the_replay_measures_and_the_system_prompt_is_its_own():
    messages = conversation()
    system, tools = "You are a coding agent. " * 20, [{"name": "Bash", "input_schema": {"type": "object"}}]
    history = prepare(Conversation(messages=messages, system=system, tools=tools))
    chars = composer_of(history).chars(history)
    assert sum(chars.values()) == history.context_size
    assert chars[SYSTEM, None] == size(system) + size(tools) == history.overhead
    assert chars[TOOL_RESULTS, "Bash"] == size(BASH_OUT) + frame(messages[2])
    assert chars[TOOL_RESULTS, "Read"] == size(READ_OUT)
    assert chars[PERSON, None] == size(messages[0]) + LIST_FRAME


def test_tokens_sum_to_the_calls_and_what_the_log_does_not_hold_is_a_kind_of_its_own():
    history = prepare(conversation())
    estimated = history_composition(history)
    assert estimated.tokens == history.context_tokens == sum(estimated.kinds.values())
    assert estimated.kinds[NOT_IN_LOG] == 0 and list(estimated.kinds) == list(KINDS)
    assert estimated.tool_results_by_tool == {"Bash": estimated.kinds[TOOL_RESULTS] - estimated.tool_results_by_tool["Read"],
                                              "Read": estimated.tool_results_by_tool["Read"]}
    assert list(estimated.tool_results_by_tool) == ["Bash", "Read"]  # largest first
    more = history_composition(history, tokens=estimated.tokens + 500, recorded=estimated.tokens + 500)
    assert more.kinds[NOT_IN_LOG] == 500
    assert {k: v for k, v in more.kinds.items() if k != NOT_IN_LOG} == \
        {k: v for k, v in estimated.kinds.items() if k != NOT_IN_LOG}
    assert more.recorded_tokens == more.tokens == sum(more.kinds.values())
    fewer = history_composition(history, tokens=estimated.tokens // 2)
    assert sum(fewer.kinds.values()) == estimated.tokens // 2 and fewer.kinds[NOT_IN_LOG] == 0
    assert sum(fewer.tool_results_by_tool.values()) == fewer.kinds[TOOL_RESULTS]
    assert abs(fewer.kinds[TOOL_RESULTS] - estimated.kinds[TOOL_RESULTS] / 2) <= 1


def test_a_calibrated_overhead_is_the_system_prompt_and_tools():
    chars = Counter({(PERSON, None): 1_000, (TOOL_RESULTS, "Bash"): 3_000})
    model = TokenModel(0.3, 12_000, calibrated=True)
    found = from_chars(chars, model)
    assert found.tokens == model.tokens(4_000) == 13_200
    assert found.kinds[SYSTEM] == 12_000 and found.kinds[PERSON] == 300 and found.kinds[TOOL_RESULTS] == 900


def test_shares_are_whole_and_sum_exactly():
    assert shares(10, {"a": 1, "b": 1, "c": 1}) == {"a": 4, "b": 3, "c": 3}
    assert shares(7, {"a": 0, "b": 0}) == {"a": 7, "b": 0}
    assert shares(0, {}) == {}


def naive_chars(history) -> Counter:
    """Every message measured afresh, no running sums, no table of made messages."""
    totals = Counter({(SYSTEM, None): history.overhead} if history.overhead else {})
    for position, message in enumerate(history.messages):
        origin = history.origins[position]
        for key, chars in message_parts(message, history.sizes[position],
                                        lambda use_id, origin=origin: history.tool_name(use_id, origin),
                                        origin in history.recorded.agent_summaries and history.is_original(position)):
            totals[key] += chars
    return totals


@pytest.mark.parametrize(("strategy", "acting"), [("pipeline", {"L1", "L2"}), ("masking", {"mask"}),
                                                 ("summary_keep_last", {"summary"})])
def test_along_a_replay_each_call_is_its_history_measured_afresh_and_sums_to_the_replays_figures(strategy, acting):
    messages = turns(120, output_chars=900)
    result = replay(messages, DEFAULTS.replace(context_limit=40_000), strategy=strategy)
    along, uncompacted = compositions_along(result), uncompacted_along(result)
    assert acting <= {action for record in result.calls for action in record.acted}  # made messages among originals
    made_kinds = set()
    for record, found, raw in zip(result.calls, along, uncompacted, strict=True):
        history = result.history(record.call)
        assert sum(found.chars.values()) == record.chars
        afresh = naive_chars(history)
        assert found.chars == {kind: sum(v for (k, _), v in afresh.items() if k == kind) for kind in KINDS}
        assert found.tool_result_chars == {tool: v for (k, tool), v in afresh.items() if k == TOOL_RESULTS and v}
        assert sum(found.kinds.values()) == record.tokens
        assert sum(raw.chars.values()) == record.raw_chars and sum(raw.kinds.values()) == record.raw_tokens
        made_kinds |= {kind for kind, value in found.chars.items() if value}
    made = PLACEHOLDERS if strategy != "summary_keep_last" else SUMMARIES
    assert {made, TOOL_RESULTS, TOOL_CALLS} <= made_kinds
    assert uncompacted[-1].chars[made] == 0 < along[-1].chars[made]


def test_the_agents_own_summary_is_one_as_the_log_sent_it_and_absent_without_compaction():
    history = prepare(load_conversation(SAMPLES / "claude_code_session.jsonl"))
    [summary] = history.recorded.agent_summaries
    result = replay(history, strategy="as-recorded")
    last = result.calls[-1]
    found, raw = compositions_along(result)[-1], uncompacted_along(result)[-1]
    assert found.chars[SUMMARIES] == history.sizes[summary] + LIST_FRAME and raw.chars[SUMMARIES] == 0
    assert found.tokens == last.tokens == last.measures.recorded["context_tokens"] == found.recorded_tokens
    assert sum(found.kinds.values()) == found.tokens


@pytest.mark.parametrize("sample", ["claude_code_long_session.jsonl", "claude_code_session.jsonl", "seed_demo.json"])
def test_what_the_log_sent_at_each_call_is_what_the_as_recorded_replay_sends(sample):
    history = prepare(load_conversation(SAMPLES / sample))
    result = replay(history, strategy="as-recorded", model_window_tokens=10**9)  # no reactive compaction
    for record in result.calls:
        found, messages = sent_composition(history, record.index)
        assert found == call_composition(result, record.call) and messages == record.messages, record.call


def test_a_call_the_log_did_not_record_is_measured_from_the_one_before():
    history = prepare(load_conversation(SAMPLES / "claude_code_session.jsonl"))
    calls = [i for i, message in enumerate(history.messages) if message["role"] == "assistant"]
    usage = list(history.recorded.usage)
    recorded, last = usage[calls[-2]], calls[-1]
    usage[last] = None  # as a response the agent wrote itself (no call) leaves it
    blind = prepare(Conversation(messages=history.messages, usage=usage,
                                 metadata={"compact_boundaries": history.recorded.boundaries,
                                           "compact_summary_indices": sorted(history.recorded.agent_summaries)}))
    found, _ = sent_composition(blind, last)
    before, _ = sent_composition(blind, calls[-2])
    grown = sum(found.chars.values()) - sum(before.chars.values())
    assert found.recorded_tokens is None
    assert found.tokens == before.tokens + blind.token_model.content_tokens(grown)
    assert before.tokens == recorded["input_tokens"] + recorded["cache_creation_input_tokens"] \
        + recorded["cache_read_input_tokens"]

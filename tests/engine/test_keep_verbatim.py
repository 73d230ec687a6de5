"""Keep verbatim (model/keep.py): the calls the settings name, and their results, go through every layer
whole, in every history the replay sends, and the history stays valid."""

import pytest

from compaction import (
    Settings,
    SettingsError,
    build,
    check_pairs,
    compact_history,
    generate,
    micro_compact,
    replay,
    run_pipeline,
    snip_compact,
    tool_result_budget,
)

SESSION = generate("realistic", turns=60, seed=2)
KEPT_TOOL = "run_tests"
KEPT_PATH = "tests/test_config.py"


def kept_messages(messages, tools=(KEPT_TOOL,), inputs=()) -> "Kept":
    """The original messages holding a kept call or its result, and the kept calls' ids."""
    ids = {b["id"] for m in messages if m["role"] == "assistant" and isinstance(m["content"], list)
           for b in m["content"] if b.get("type") == "tool_use"
           and (b["name"] in tools or any(text in str(b["input"]) for text in inputs))}
    assert ids
    return Kept([m for m in messages if isinstance(m["content"], list) and any(
        b.get("id") in ids or b.get("tool_use_id") in ids for b in m["content"])], frozenset(ids))


class Kept(list):
    """Messages, with the ids of the kept calls among their blocks."""

    def __init__(self, messages, ids: frozenset[str]):
        super().__init__(messages)
        self.ids = ids

    def before(self, index: int) -> "Kept":
        return Kept([m for m in self if SESSION.index(m) < index], self.ids)


def assert_kept_whole(sent: list[dict], kept: Kept) -> None:
    """Each kept call and kept result (the blocks: L2 may still replace another result of the same message)
    is sent as it was, and the history is valid."""
    blocks = [b for m in sent if isinstance(m["content"], list) for b in m["content"]]
    ids = kept.ids
    for message in kept:
        for block in message["content"]:
            if block.get("id") in ids or block.get("tool_use_id") in ids:
                assert block in blocks, f"a kept block was changed or dropped: {str(block)[:120]}"
    assert not check_pairs(sent)


def test_the_settings_take_names_as_a_list_or_one_text():
    settings = Settings(keep_tools="run_tests, bash,run_tests", keep_inputs=["CLAUDE.md"])
    assert settings.keep_tools == ("run_tests", "bash") and settings.keep_inputs == ("CLAUDE.md",)
    assert settings.keeps and not Settings().keeps
    assert settings.replace(keep_tools=()).keep_tools == ()
    with pytest.raises(SettingsError, match="keep_tools must be names"):
        Settings(keep_tools=[3])


def test_each_layer_leaves_the_kept_calls_whole():
    keep = Settings(keep_tools=(KEPT_TOOL,), keep_recent=0, min_placeholder_chars=0, max_messages=8, keep_head=2,
                    max_bytes=0, persist_threshold=1)
    kept = kept_messages(SESSION)
    # L2: every other result older than none becomes a placeholder; the kept ones stay
    placed = micro_compact(SESSION, keep)
    assert placed.events and all(e.tool_use_id not in str(kept) for e in placed.events)
    assert_kept_whole(placed.history.messages, kept)
    # L1: the kept messages follow the snip marker, in their order
    snipped = snip_compact(SESSION, keep)
    messages = snipped.history.messages
    assert snipped.events and messages.index(kept[0]) < messages.index(kept[-1])
    assert_kept_whole(messages, kept)
    assert snipped.events[0].count == len(SESSION) - len(messages) + 1  # the marker stands for what it dropped
    # L4: the summary, then the kept messages whole
    summary = compact_history(SESSION, settings=keep)
    assert summary.events[0].succeeded and summary.history.messages[1:] == kept  # the summary read the others
    assert_kept_whole(summary.history.messages, kept)
    # L3: a kept result is never saved to disk (the last message here holds only kept results)
    last = next(i for i in range(len(SESSION)) if SESSION[i] is kept[-1])
    assert not tool_result_budget(SESSION[:last + 1], keep).events
    assert tool_result_budget(SESSION[:last + 1], keep.replace(keep_tools=())).events


def test_without_a_rule_the_layers_are_what_they_were():
    default = Settings(keep_recent=0, max_messages=8, keep_head=2)
    assert snip_compact(SESSION, default).history.messages == snip_compact(
        SESSION, default.replace(keep_tools=("no_such_tool",))).history.messages


@pytest.mark.parametrize("strategy", ["pipeline", "summary_keep_last"])
def test_every_history_the_replay_sends_holds_the_kept_calls_whole(strategy):
    settings = Settings(context_limit=20_000, keep_recent=1, max_messages=20, keep_inputs=(KEPT_PATH,))
    kept = kept_messages(SESSION, tools=(), inputs=(KEPT_PATH,))
    result = replay(SESSION, settings, strategy=strategy)
    assert result.totals["summaries"] > 0
    for record in result.calls:
        sent = result.history(record.call).messages
        assert_kept_whole(sent, kept.before(record.index))
    # without the rule, the same replay does touch them
    plain = replay(SESSION, settings.replace(keep_inputs=()), strategy=strategy)
    last = plain.history(len(plain.calls) - 1).messages
    with pytest.raises(AssertionError, match="a kept block was changed or dropped"):
        assert_kept_whole(last, kept)


def test_the_apis_context_editing_keeps_the_settings_tools_too():
    step = build("anthropic-clear-tool-uses", {"trigger": 1_000, "keep": 1, "clear_at_least": 0})
    settings = Settings(keep_tools=(KEPT_TOOL,))
    result = replay(SESSION, settings, strategy=step)
    assert any(c.acted for c in result.calls)
    last = result.calls[-1]
    assert_kept_whole(result.history(last.call).messages, kept_messages(SESSION).before(last.index))
    cleared = replay(SESSION, strategy=step)
    with pytest.raises(AssertionError, match="a kept block was changed or dropped"):
        assert_kept_whole(cleared.history(last.call).messages, kept_messages(SESSION).before(last.index))
    whole = run_pipeline(SESSION, settings)
    assert_kept_whole(whole.final.messages, kept_messages(SESSION))

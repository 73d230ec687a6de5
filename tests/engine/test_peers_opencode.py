"""OpenCode's compaction (session/overflow.ts and compaction.ts), worked out by hand on small chats: the
usable window, the summary once the last step reaches it, the prune of old tool outputs past the newest
40,000 tokens when more than 20,000 would be cleared, and the opencode.json that carries the settings."""

import json

from compaction import OutputStore, Settings, check_pairs, generate, prepare, replay
from compaction.agents.opencode.markers import CONTINUE, PRUNED, SUMMARY_PREFIX
from compaction.agents.opencode.preset import usable
from compaction.export import export
from compaction.model.markers import is_summary
from compaction.strategies import build

DEFAULTS = {"context_limit_tokens": 0, "input_limit_tokens": 0, "output_limit_tokens": 32_000, "reserved_tokens": 0}


class WrittenSummary:
    name = "written"

    def __init__(self):
        self.read: list[list] = []

    def summarize(self, messages, focus=None):
        self.read.append(list(messages))
        return "We fixed the parser."


def step(messages, summarizer=None, **params):
    return build("opencode", params)(prepare(messages), Settings(), OutputStore.temporary(), summarizer)


def turn(number: int, outputs: list[int]) -> list[dict]:
    """The person's message, a call per output of `outputs` tokens (characters / 4), and a last answer."""
    messages: list[dict] = [{"role": "user", "content": f"task {number}"}]
    for call, tokens in enumerate(outputs):
        call_id = f"t{number}_{call}"
        messages += [{"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": "read",
                                                        "input": {"n": call}}]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id,
                                                   "content": "x" * (tokens * 4)}]}]
    return messages + [{"role": "assistant", "content": f"done {number}"}]


def outputs_of(history) -> list[str]:
    return [block["content"] if block["content"] == PRUNED else "whole"
            for message in history.messages if isinstance(message["content"], list)
            for block in message["content"] if block.get("type") == "tool_result"]


def test_the_usable_window_is_the_context_less_the_replys_room_or_the_input_limit_less_the_reserve():
    assert usable(DEFAULTS, 200_000) == 168_000  # a Claude model: output limit 64,000, at most 32,000 kept
    assert usable({**DEFAULTS, "output_limit_tokens": 8_192}, 128_000) == 119_808
    assert usable({**DEFAULTS, "input_limit_tokens": 272_000, "output_limit_tokens": 128_000}, 400_000) == 252_000
    assert usable({**DEFAULTS, "input_limit_tokens": 272_000, "reserved_tokens": 50_000}, 400_000) == 222_000
    assert usable({**DEFAULTS, "context_limit_tokens": 100_000}, 200_000) == 68_000


def test_a_summary_once_the_last_step_reaches_the_usable_window():
    messages = [*turn(0, [9_000]), {"role": "user", "content": "and now?"}]
    below = step(messages, WrittenSummary(), context_limit_tokens=60_000, prune=False)
    assert below.acted == ()  # the last step carried about 9,000 tokens, under 60,000 - 32,000
    summarizer = WrittenSummary()
    done = step(messages, summarizer, context_limit_tokens=40_000, prune=False)
    assert done.acted == ("auto_compact",) and summarizer.read == [messages]
    assert done.history.messages == [{"role": "user", "content": f"{SUMMARY_PREFIX}\n\nWe fixed the parser."},
                                     {"role": "user", "content": CONTINUE}]
    assert is_summary(done.history.messages[0])
    assert step(messages, WrittenSummary(), context_limit_tokens=40_000, prune=False, auto=False).acted == ()


def test_the_prune_clears_the_outputs_past_the_newest_40000_tokens_before_the_last_two_turns():
    # turns 0 and 1 hold 30,000 + 30,000 tokens of outputs; turns 2 and 3 are the last two, never pruned
    messages = [*turn(0, [15_000, 15_000]), *turn(1, [15_000, 15_000]), *turn(2, [50_000]), *turn(3, [1_000]),
                {"role": "user", "content": "next"}]
    done = step(messages, WrittenSummary(), context_limit_tokens=10_000_000)
    # newest first: 15,000 + 15,000 + 15,000 passes 40,000 at the third; it and the fourth (30,000) go
    assert done.acted == ("mask",)
    assert outputs_of(done.history) == [PRUNED, PRUNED, "whole", "whole", "whole", "whole"]
    assert [event.tool for event in done.events] == ["read", "read"]


def test_no_prune_when_20000_tokens_or_fewer_would_be_freed_nor_mid_turn():
    messages = [*turn(0, [20_000]), *turn(1, [40_000]), *turn(2, [1]), *turn(3, [1]), {"role": "user", "content": "x"}]
    assert step(messages, WrittenSummary(), context_limit_tokens=10_000_000).acted == ()  # exactly 20,000: not more
    mid_turn = [*turn(0, [30_000]), *turn(1, [40_000]), *turn(2, [1]), *turn(3, [1])][:-1]
    assert step(mid_turn, WrittenSummary(), context_limit_tokens=10_000_000).acted == ()
    off = [*turn(0, [30_000]), *turn(1, [40_000]), *turn(2, [1]), *turn(3, [1]), {"role": "user", "content": "x"}]
    assert step(off, WrittenSummary(), context_limit_tokens=10_000_000).acted == ("mask",)
    assert step(off, WrittenSummary(), context_limit_tokens=10_000_000, prune=False).acted == ()


def test_replayed_on_a_generated_coding_session_every_request_keeps_its_pairs():
    messages = generate("realistic", turns=120, seed=11)
    result = replay(messages, strategy=build("opencode", {"context_limit_tokens": 60_000}), keep_histories=True)
    assert any("auto_compact" in call.acted for call in result.calls)
    assert all(not check_pairs(history.messages) for history in result.histories)


def test_opencode_json_carries_the_settings_and_the_limit_tuned():
    plain = json.loads(export("opencode", form="opencode").text)
    assert plain["compaction"] == {"auto": True, "prune": True} and "provider" not in plain
    tuned = export("opencode", {"context_limit_tokens": 120_000, "prune": False}, form="opencode")
    config = json.loads(tuned.text)
    assert config["compaction"] == {"auto": True, "prune": False}
    assert config["provider"]["PROVIDER"]["models"]["MODEL"]["limit"] == {"context": 120_000, "output": 32_000}
    assert any("88,000 tokens" in note for note in tuned.notes)
    assert any("PRUNE_PROTECT" in note for note in export("opencode", {"prune_protect_tokens": 20_000},
                                                          form="opencode").notes)


def test_the_prune_stops_at_a_summary_and_at_an_output_pruned_before():
    summary = {"role": "user", "content": f"{SUMMARY_PREFIX}\n\nWe read the files."}
    before = [*turn(0, [30_000, 30_000]), summary]  # outputs behind the summary are never counted again
    messages = [*before, *turn(1, [15_000]), *turn(2, [1]), *turn(3, [1]), {"role": "user", "content": "x"}]
    assert step(messages, WrittenSummary(), context_limit_tokens=10_000_000).acted == ()
    cleared = turn(0, [30_000])
    cleared[2] = {**cleared[2], "content": [{**cleared[2]["content"][0], "content": PRUNED}]}
    again = [*turn(9, [30_000]), *cleared, *turn(1, [35_000]), *turn(2, [1]), *turn(3, [1]),
             {"role": "user", "content": "x"}]
    # newest first: 35,000 stays under 40,000, then the output pruned before stops the walk: turn 9's 30,000,
    # which would pass 40,000 and be cleared, is not reached
    assert step(again, WrittenSummary(), context_limit_tokens=10_000_000).acted == ()
    assert step([*turn(9, [30_000]), *turn(1, [35_000]), *again[-9:]], WrittenSummary(),
                context_limit_tokens=10_000_000).acted == ("mask",)

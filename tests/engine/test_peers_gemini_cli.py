"""Gemini CLI's chat compression, worked out by hand from chatCompressionService.ts and client.ts, and checked on
chat recordings written in gemini-cli's layout."""

import json

from compaction import Settings, check_pairs, prepare
from compaction.agents.gemini_cli.markers import SUMMARY_PREFIX as GEMINI_SUMMARY_PREFIX
from compaction.agents.gemini_cli.preset import (
    ACKNOWLEDGEMENT,
    last_prompt_tokens,
    shorten,
    split_point,
    threshold_on,
    within_budget,
)
from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import build

from .builders import assistant, call, results, user


def session():
    """Sizes 39, 119, 4,089, 72, 39, 119, 1,089, 72, 41 characters (5,679 in all; 1,425 tokens sent)."""
    return [user("task one"), call("a"), results(("a", "x" * 4000)), assistant("done one"), user("task two"),
            call("b"), results(("b", "y" * 1000)), assistant("done two"), user("task three")]


def test_the_split_is_the_first_message_of_the_person_past_seventy_percent():
    messages = session()
    sizes = [len(str(m)) for m in messages]
    # 70 % of 5,679 is 3,975.3; the person's messages start at 0 (0 before them) and 4 (4,319 before it);
    # 6 is a tool turn and does not count
    assert split_point(messages, sizes, 0.7) == 4
    assert split_point(messages[:4], sizes[:4], 0.7) == 4  # none past it, the last is an answer: all of it
    assert split_point(messages[:3], sizes[:3], 0.7) == 0  # none past it, the last is a tool turn: nothing


def test_it_fires_at_half_the_window_on_the_last_prompt_and_keeps_the_newest_share():
    """gemini-cli compares the last call's prompt (getLastPromptTokenCount): here the one that wrote "done two",
    1,395 tokens; the request about to be sent (1,425) does not count."""
    messages = session()
    assert last_prompt_tokens(prepare(messages)) == 1_395 and prepare(messages).context_tokens == 1_425
    assert build("gemini-cli", {"window_tokens": 2_792})(prepare(messages), Settings()).acted == ()  # 1,396 > 1,395
    step = build("gemini-cli", {"window_tokens": 2_790})(prepare(messages), Settings())  # 1,395 >= 1,395
    sent = step.history.messages
    assert sent[0]["content"].startswith(GEMINI_SUMMARY_PREFIX + "\n\n")
    assert sent[1] == {"role": "assistant", "content": ACKNOWLEDGEMENT}
    assert sent[2:] == messages[4:]
    assert step.events[0].summarized_indices == (0, 1, 2, 3) and check_pairs(sent) == []


def test_the_default_threshold_is_the_one_of_the_sessions_date():
    assert threshold_on("2026-04-14T04:00:00.000Z") == 0.5 and threshold_on("2025-11-20") == 0.5
    assert threshold_on("2025-11-19T23:59:59Z") == 0.7 and threshold_on("2025-09-01") == 0.7
    assert threshold_on(None) == 0.5


def recording(tmp_path, start: str, model: str = "gemma-4-31b-it", note: bool = True):
    """A chat recording in gemini-cli's layout (session-*.json): two turns, the second reading two files of
    the archive, 160,000 and 320,000 characters, whose prompts the API counted at 61,000 and 141,000 tokens;
    then "Context compressed from 55% to 9%." and the answer at 23,000. Gemma 4's limit is 256,000: the
    threshold 128,000 at 0.5 (2026), 179,200 at 0.7 (before 20 Nov 2025)."""
    def gemini(n, text, prompt, calls=()):
        return {"id": f"g{n}", "timestamp": f"{start}T04:0{n}:00.000Z", "type": "gemini", "content": text,
                "thoughts": [], "model": model, "toolCalls": list(calls),
                "tokens": {"input": prompt, "output": 40, "cached": 0, "thoughts": 0, "tool": 0, "total": prompt + 40}}

    def read(n, path, chars):
        call_id = f"read_file_17761392{n}0000_0"
        return {"id": call_id, "name": "read_file", "args": {"file_path": path}, "status": "success",
                "result": [{"functionResponse": {"id": call_id, "name": "read_file",
                                                 "response": {"output": ("entry: the ledger line\n" * chars)[:chars]}}}],
                "timestamp": f"{start}T04:0{n}:30.000Z", "resultDisplay": "", "displayName": "ReadFile",
                "description": "", "renderOutputAsMarkdown": True}
    messages = [
        {"id": "u0", "timestamp": f"{start}T04:00:00.000Z", "type": "user", "content": [{"text": "what is in the vault?"}]},
        gemini(0, "The vault holds notes, an inbox and an archive of two years.", 20_000),
        {"id": "u1", "timestamp": f"{start}T04:01:00.000Z", "type": "user", "content": [{"text": "map the archive"}]},
        gemini(1, "I will read both years.", 20_500, [read(1, "archive/2025.md", 160_000)]),
        gemini(2, "2025 is read; now 2026.", 61_000, [read(2, "archive/2026.md", 320_000)]),
        gemini(3, "Both years are read; writing the map.", 141_000),
    ]
    if note:
        messages.append({"id": "i0", "timestamp": f"{start}T04:04:00.000Z", "type": "info",
                         "content": "Context compressed from 55% to 9%."})
    messages += [{"id": "u2", "timestamp": f"{start}T04:05:00.000Z", "type": "user", "content": [{"text": "thanks"}]},
                 gemini(5, "You are welcome.", 23_000)]
    path = tmp_path / f"session-{start}T04-00-f3283100.json"
    path.write_text(json.dumps({"sessionId": "f3283100-0000-4000-8000-00000000ab01", "projectHash": "5e0c" * 16,
                                "startTime": f"{start}T04:00:00.000Z", "lastUpdated": f"{start}T04:05:00.000Z",
                                "kind": "main", "messages": messages}, indent=1))
    return load_conversation(path)


def test_on_a_recording_it_compresses_where_gemini_cli_did(tmp_path):
    conversation = recording(tmp_path, "2026-04-14")
    result = replay(conversation, strategy="gemini-cli", keep_histories=False)
    assert result.model_window_tokens == 256_000  # Gemma 4's tokenLimit
    acted = [call for call in result.calls if call.acted]
    assert [call.call for call in acted] == [4] and [b["call"] for b in result.boundaries] == [4]
    assert acted[0].events[0].reason.startswith("the last prompt's 141,000 tokens >= 0.5 of 256,000")
    assert result.calls[4].tokens < 60_000  # the summary, its acknowledgement and the newest turn


def test_before_20_november_2025_it_waits_for_seventy_percent(tmp_path):
    old = replay(recording(tmp_path, "2025-10-01", note=False), strategy="gemini-cli", keep_histories=False)
    assert not any(call.acted for call in old.calls)  # 141,000 < 0.7 x 256,000
    asked = replay(recording(tmp_path, "2025-10-01", note=False), strategy=build("gemini-cli", {"threshold_fraction": 0.5}),
                   keep_histories=False)
    assert [call.call for call in asked.calls if call.acted] == [4]


def test_older_tool_outputs_past_the_budget_are_shortened_newest_first():
    messages = [user("go"), call("a"), results(("a", "a" * 4000)), call("b"), results(("b", "b" * 4000))]
    shortened, sizes = within_budget(prepare(messages), 1_100, 500)
    # the newest output (1,000 tokens) fits the 1,100; the older one would make 2,000: cut to 500 characters
    assert shortened[4] is messages[4]
    text = shortened[2]["content"][0]["content"]
    assert text.startswith("Output too large. Showing first 100 and last 400 characters.")
    assert "... [3,500 characters omitted] ..." in text and text.endswith("a" * 400)
    assert sizes[2] == len(str(shortened[2])) and messages[2]["content"][0]["content"] == "a" * 4000
    assert shorten("short", 500) == "short"

"""`compaction watch --json` following a Claude Code log while it is written: the log of
cases/claude_code_growing.jsonl (written by hand in the layout of Claude Code 2.1.128's logs: responses
over several lines, a tool result between them, progress and snapshot lines, a compact_boundary with
postTokens and its summary line) is appended line by line to a file, some lines in two writes, while
the watcher runs as its own process. Every wait is on what the watcher prints."""

import json
import signal
from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import recorded_cost
from tests.live.watching import GrowingLog, Watch

CASE = Path(__file__).parent / "cases" / "claude_code_growing.jsonl"
CUT = (8, 11, 14, 17, 20, 26, 28)  # lines written in two writes: responses, a result, the compaction


def first_lines_of_calls(lines: list[bytes]) -> list[int]:
    """A plain reading: the line where each response (message.id with usage) first appears."""
    first: dict[str, int] = {}
    for number, text in enumerate(lines, start=1):
        value = json.loads(text)
        message = value.get("message")
        if value.get("type") == "assistant" and message.get("usage"):
            first.setdefault(message["id"], number)
    return sorted(first.values())


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    lines = CASE.read_bytes().splitlines(keepends=True)
    log = GrowingLog(tmp_path_factory.mktemp("watch") / "5f0e2c1a-7b3d-4e8f-9a21-3c4d5e6f7a80.jsonl")
    watch = Watch(log.path, "--reads")
    halves = []
    try:
        for number, line in enumerate(lines, start=1):
            if number not in CUT:
                log.append(line)
                continue
            half = len(line) // 2
            size = log.append(line[:half])
            # wait until a read has seen the first half: it must stop before it and leave it for later
            halves.append(watch.until(lambda found, size=size: found["event"] == "read" and found["partial_bytes"]
                                      and found["end"] + found["partial_bytes"] == size))
            log.append(line[half:])
        watch.until(lambda found: found["event"] == "call" and found["call"] == len(first_lines_of_calls(lines)))
        stopped = watch.interrupt()
        code = watch.proc.wait(timeout=60)
    finally:
        watch.close()
    return lines, watch, halves, stopped, code


def test_each_call_appears_once_in_order(watched):
    lines, watch, _, stopped, code = watched
    calls = watch.events("call")
    assert [call["call"] for call in calls] == list(range(1, 12))
    assert [call["line"] for call in calls] == first_lines_of_calls(lines)
    assert [call["tokens"] for call in calls] == [19_690, 40_690, 61_690, 82_690, 103_690, 124_690, 145_690,
                                                  166_690, 29_805, 32_805, 35_805]
    costs = [call["cost_so_far_usd"] for call in calls]
    assert costs == sorted(costs) and costs[0] > 0
    # what the watcher counted is what the importer reads from the finished file
    finished = recorded_cost(load_conversation(CASE).usage, DEFAULT_PRICES).total_usd
    assert stopped["cost_so_far_usd"] == pytest.approx(finished, abs=1e-5)
    assert (stopped["reason"], stopped["calls"], code) == ("interrupted", 11, 0)


def test_a_half_written_line_waits_for_the_next_read(watched):
    _, watch, halves, stopped, _ = watched
    assert len(halves) == len(CUT)
    reads = watch.events("read")
    assert reads[0]["start"] == 0
    for before, after in zip(reads, reads[1:], strict=False):
        assert after["start"] == before["end"]  # never from the start again
    assert stopped["restarts"] == 0 and all(read["restarted"] is None for read in reads)
    assert not watch.events("skipped")  # no half line was taken for a broken one


def test_the_calls_left_count_down_to_the_compaction(watched):
    _, watch, _, _, _ = watched
    before = [call for call in watch.events("call") if call["call"] <= 8]
    assert before[0]["calls_left"] is None  # one call: no growth to go by yet
    left = [call["calls_left"] for call in before[1:]]
    assert all(later < earlier for earlier, later in zip(left, left[1:], strict=False)), left
    assert left[-1] == 1  # the agent compacts before its next call
    assert [call["tokens_left"] for call in before] == sorted((call["tokens_left"] for call in before), reverse=True)
    assert {call["forecast"]["threshold"] for call in before} == {167_000}  # Claude Code 2.1.128 in a 200k window
    assert before[-1]["forecast"]["label"] == "Claude Code 2.1.128"


def test_after_the_compaction_line_the_forecast_starts_from_the_kept_context(watched):
    _, watch, _, _, _ = watched
    order = [(found["event"], found.get("call")) for found in watch.seen if found["event"] in ("call", "compaction")]
    assert order.index(("compaction", None)) == order.index(("call", 8)) + 1
    compaction = watch.events("compaction")[0]
    assert (compaction["line"], compaction["trigger"], compaction["pre_tokens"], compaction["post_tokens"]) == \
        (26, "auto", 170_112, 8_949)
    kept = compaction["forecast"]
    base = 19_690  # the first call's context: system prompt, tools and the first prompt
    assert kept["tokens_now"] == base + 8_949 == kept["kept_tokens"]
    assert kept["calls_left"] > 1 and kept["tokens_left"] == 167_000 - kept["tokens_now"]
    first_after = next(call for call in watch.events("call") if call["call"] == 9)
    assert first_after["first_after_compaction"] is True
    assert first_after["growth"] == 29_805 - 166_690
    assert first_after["forecast"]["tokens_now"] == 29_805 + first_after["output_tokens"]
    assert first_after["calls_left"] >= kept["calls_left"] - 1 > 1
    # the drop at the compaction is not taken for the session's pace
    assert first_after["forecast"]["growth_per_call"] == 21_000


def test_the_forecast_says_what_the_compaction_does_and_costs(watched):
    _, watch, _, _, _ = watched
    last_before = next(call for call in watch.events("call") if call["call"] == 8)["forecast"]
    assert last_before["action"].startswith("summarises the whole conversation")
    costs = last_before["costs"]
    assert (costs["model"], costs["lifetime"]) == ("claude-sonnet-4-6", "1h")
    # the first call after reads the system prompt and tools from the cache (the first call read 14,091:
    # $0.30 per million) and writes the rest of the kept context (1-hour writes: 2 x $3 per million)
    output = round(sum((244, 310, 402, 288, 350, 512, 198, 276)) / 8)
    assert costs["first_call_after_read_tokens"] == 14_091
    assert costs["first_call_after_usd"] == pytest.approx(
        (14_091 * 0.3 + (last_before["kept_tokens"] - 14_091) * 6 + output * 15) / 1e6, abs=1e-6)
    assert costs["first_call_after_usd"] < costs["next_call_without_usd"]
    assert costs["saved_per_later_call_usd"] > 0
    # the compaction's call and the cheap first call after cost less than going on: it pays from the first call
    assert costs["compaction_call_usd"] + costs["first_call_after_usd"] <= costs["next_call_without_usd"]
    assert costs["pays_back_after_calls"] == 0


def test_sigterm_stops_the_watcher_as_ctrl_c_does(tmp_path):
    log = GrowingLog(tmp_path / "5f0e2c1a-7b3d-4e8f-9a21-3c4d5e6f7a81.jsonl")
    lines = CASE.read_bytes().splitlines(keepends=True)
    watch = Watch(log.path)
    try:
        for line in lines[:first_lines_of_calls(lines)[1]]:
            log.append(line)
        watch.until(lambda found: found["event"] == "call" and found["call"] == 2)
        stopped = watch.interrupt(signal.SIGTERM)
        code = watch.proc.wait(timeout=60)
    finally:
        watch.close()
    assert (stopped["reason"], stopped["calls"], code) == ("terminated", 2, 0)

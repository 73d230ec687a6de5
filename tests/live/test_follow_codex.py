"""Following a Codex CLI rollout as it is written (cases/codex_growing.jsonl, written by hand in the
layout of cli 0.118: token_count events written twice, a `compacted` line with its replacement history,
then `context_compacted` and an all-zero token_count)."""

from compaction.importers import load_conversation
from compaction.live.follower import Follower
from tests.live.growing import CASES, calls, compactions, follow_line_by_line


def test_each_call_once_from_its_first_token_count(tmp_path):
    follower, reported = follow_line_by_line("codex_growing.jsonl", tmp_path / "rollout.jsonl", cut=(10, 14, 22))
    found = calls(reported)
    assert [item.update.call.line for item in found] == [10, 14, 17, 20, 27, 30]  # the repeats at 11 and 31 left out
    assert [item.update.call.context for item in found] == [12_000, 150_000, 200_000, 236_000, 41_588, 43_588]
    assert {item.update.call.model for item in found} == {"gpt-5.4-mini"}
    assert follower.title == "Codex CLI" and follower.session.facts["version"] == "0.118.0"
    assert follower.source.restarts == 0 and follower.session.lines_skipped == 0
    # as many calls as the importer gives usage to, from the finished file
    finished = load_conversation(CASES / "codex_growing.jsonl")
    assert len(found) == sum(1 for usage in finished.usage if usage)


def test_the_compaction_is_counted_once_and_the_forecast_starts_again(tmp_path):
    follower, reported = follow_line_by_line("codex_growing.jsonl", tmp_path / "rollout.jsonl")
    [compaction] = compactions(reported)
    # mid-turn (after a tool's output): Codex's own (agents/codex/triggers.py)
    assert (compaction.update.compaction.line, compaction.update.compaction.trigger) == (22, "auto")
    before = [item.forecast for item in calls(reported)][:4]
    assert {forecast.threshold for forecast in before} == {244_800}  # 90 % of the 272,000 window
    assert before[-1].calls_left == 1
    assert before[-1].action.startswith("drops the tool calls, their results and the answers")
    kept = compaction.forecast
    assert kept.tokens_now == kept.kept_tokens < 20_000  # the first call's context, the person's words, a summary
    first_after = calls(reported)[4]
    assert first_after.update.first_after_compaction and first_after.forecast.calls_left > 1


def test_the_person_is_what_codex_keeps(tmp_path):
    follower, _ = follow_line_by_line("codex_growing.jsonl", tmp_path / "rollout.jsonl")
    asked = "sort the notes in INBOX into folders by topic"
    assert sum(follower.session.person_tokens) == -(-len(asked) // 4)
    assert "the person's newest messages (about 12 tokens, at most 20,000)" in follower.forecast().action


def test_a_rollout_of_2025_says_it_has_no_token_counts(tmp_path):
    path = tmp_path / "rollout-2025-08-19.jsonl"
    path.write_bytes((CASES.parent.parent / "importers" / "cases" / "valid" / "codex_legacy_2025.jsonl").read_bytes())
    follower = Follower(path)
    reported = follower.poll()
    assert [item.update.kind for item in reported] == ["no_usage"]
    assert follower.forecast().tokens_now is None


def test_codex_counts_the_reasoning_before_the_persons_turn(tmp_path):
    """The rollout the Codex preset's tests use (tests/engine/codex_logs): a window of 9,500 reported (10,000,
    a limit of 9,000); turn 1's two responses carry 2,088 tokens of encrypted reasoning each. At the third
    call (4,500 tokens, 400 of output), Codex's count adds them: 9,076, past the limit, so the compaction
    comes before the next call, as the log's `compacted` line says it did."""
    rollout = CASES.parent.parent / "engine" / "codex_logs" / "reasoning_decides.jsonl"
    target = tmp_path / "rollout.jsonl"
    target.write_bytes(b"")
    follower = Follower(target)
    seen = []
    for line in rollout.read_bytes().splitlines(keepends=True):
        with open(target, "ab") as handle:
            handle.write(line)
        seen += follower.poll()
    forecasts = [item.forecast for item in calls(seen)]
    assert {forecast.threshold for forecast in forecasts} == {9_000}  # 90 % of 9,500 / 0.95
    assert [forecast.tokens_now for forecast in forecasts[:3]] == [3_000 + 200, 3_800 + 300, 4_500 + 400 + 4_176]
    assert forecasts[2].calls_left == 1 and forecasts[2].calls_left_range == (1, 1)
    assert forecasts[1].calls_left > 1  # before turn 2 the reasoning is the turn's own: not counted
    [compaction] = compactions(seen)
    assert compaction.update.compaction.calls_before == 3
    assert follower.session.facts["earlier_reasoning_tokens"] == 0  # the history was replaced


def test_what_a_remote_compaction_carries_on_with(tmp_path):
    """cli 0.117 on compacts remotely: the first call after holds the system prompt and tools, the person's
    messages, the assistant's answers and the encrypted summary. Before the compaction of the growing case:
    its first call less the text written before it, the person's 12 tokens, no answer yet, 1,300 of summary."""
    follower, reported = follow_line_by_line("codex_growing.jsonl", tmp_path / "rollout.jsonl")
    last_before = calls(reported)[3].forecast
    session = follower.session
    assert session.prefix_tokens is not None and "a remote compaction" in last_before.kept_basis
    assert last_before.kept_tokens == 12_000 - session.opening_tokens + 12 + 1_300


def test_a_compaction_between_turns_under_the_limit_is_read_as_the_persons():
    from compaction.agents.codex.live_lines import CodexLines
    from compaction.live.events import CompactionSeen

    def seen(context: int) -> str | None:
        reader = CodexLines()
        lines = [{"type": "session_meta", "payload": {"id": "s", "cli_version": "0.64.0"}},
                 {"type": "response_item", "payload": {"type": "message", "role": "assistant",
                                                       "content": [{"type": "output_text", "text": "Done."}]}},
                 {"type": "event_msg", "payload": {"type": "token_count", "info": {
                     "total_token_usage": {"input_tokens": context, "total_tokens": context + 300},
                     "last_token_usage": {"input_tokens": context, "cached_input_tokens": 0, "output_tokens": 300,
                                          "total_tokens": context + 300}, "model_context_window": 258_400}}},
                 {"type": "compacted", "payload": {"message": "", "replacement_history": []}}]
        events = [event for number, line in enumerate(lines, 1) for event in reader.read(number, line)]
        return next(event.trigger for event in events if isinstance(event, CompactionSeen))

    assert (seen(80_000), seen(230_000)) == ("manual", "auto")  # 31 % and 89 % of the window, between turns


def test_a_response_interrupted_before_its_token_count_is_a_call_as_the_replay_numbers_it(tmp_path):
    """cases/codex_interrupted.jsonl, by hand in the layout of a public cli 0.117 rollout: after a tool's
    output the model's reasoning is written, then the person interrupts (`<turn_aborted>`, `turn_aborted`)
    before any token_count. The replay counts that response as call 2; the follower numbers it 2 too, with
    the previous call's context and no cost, and the next turn's response is call 3 for both."""
    from compaction.replay.loop import replay

    follower, reported = follow_line_by_line("codex_interrupted.jsonl", tmp_path / "rollout.jsonl")
    found = [item.update.call for item in calls(reported)]
    replayed = replay(load_conversation(CASES / "codex_interrupted.jsonl"), strategy="as-recorded")
    assert [call.number for call in found] == [1, 2, 3] == [call.call + 1 for call in replayed.calls]
    assert [call.line for call in found] == [9, 13, 21]
    assert [call.context for call in found] == [20_000, 20_000, 21_000]
    assert found[1].cost_usd == 0 and found[1].output == 0
    assert follower.session.cost_usd == found[0].cost_usd + found[2].cost_usd
    assert list(follower.session.growths) == [1_000]  # the unmeasured call is no step of the session's pace

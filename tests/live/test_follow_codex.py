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
    assert (compaction.update.compaction.line, compaction.update.compaction.trigger) == (22, None)
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

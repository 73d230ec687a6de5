"""The compaction cards on a hand-written Claude Code log (cases/: input and expected, worked out by hand), on
the Codex case of the importers' tests, and the rules of what counts as read again."""

import json
from pathlib import Path

from compaction import load_conversation, prepare
from compaction.compactions import ENCRYPTED, compaction_cards
from compaction.compactions.reread import absent, names_of

CASES = Path(__file__).parent / "cases"
IMPORTER_CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"


def _cards(path: Path):
    conversation = load_conversation(path)
    return compaction_cards(prepare(conversation), conversation.format)


def test_a_manual_compaction_opened_as_worked_out_by_hand():
    """a.py was read before, is neither in the summary nor attached again, and is read again after; b.py is
    attached again (the log's attachment line) and named in the summary; `pytest -q` failed before (a failed
    request fetched nothing), and its error, which the summary does not hold, came back."""
    expected = json.loads((CASES / "claude_code_manual_compaction.expected.json").read_text())
    [card] = _cards(CASES / "claude_code_manual_compaction.jsonl")
    found = card.as_dict()
    for key in ("call", "index", "time", "trigger", "focus", "tokens_before", "tokens_after", "post_tokens",
                "duration_ms", "summary_chars", "reread_files"):
        assert found[key] == expected[key], key
    assert list(card.carried_on.files) == expected["files"]
    assert card.carried_on.files_note == "the files the log's attachment lines name"
    assert {key: found["cost"][key] for key in expected["cost"]} == expected["cost"]
    assert found["cost_usd"] == expected["cost"]["total_usd"]
    assert card.carried_on.summary.endswith("b.py holds the tokenizer.")  # as the agent wrote it
    assert found["replaced"]["recorded_context_tokens"] == 4_910  # the call before: 10 + 200 + 4,700


def test_codex_carries_an_encrypted_summary_and_the_persons_messages():
    [card] = _cards(IMPORTER_CASES / "codex_compaction.jsonl")
    carried = card.carried_on
    assert carried.summary is None and carried.summary_note.startswith(ENCRYPTED)
    assert card.as_dict()["carried_on"]["summary"].startswith("encrypted by the agent")
    assert carried.kept_note == "2 of the person's messages and 1 of its final answers kept (replacement_history)"
    assert card.tokens_before == 232_571 and card.tokens_after == 41_588 and card.call == 3


def test_gemini_clis_compression_as_its_log_writes_it():
    """Its info message gives the tokens before and after (post_tokens); it holds no summary text."""
    [card] = _cards(IMPORTER_CASES / "gemini_chat_tool_calls.json")
    assert (card.call, card.trigger, card.tokens_before, card.post_tokens) == (4, "auto", 526_049, 115_614)
    assert card.carried_on.summary is None and card.carried_on.summary_chars == 0


def test_a_log_that_never_compacted_has_no_card():
    assert _cards(IMPORTER_CASES / "codex_parallel_calls.jsonl") == []


def test_what_names_a_call_and_what_counts_as_carried():
    assert names_of({"name": "Read", "input": {"file_path": "/w/a.py", "limit": 10}}) == [("file", "/w/a.py")]
    assert names_of({"name": "shell", "input": {"command": ["bash", "-lc", "cat x"]}}) == \
        [("request", "shell: bash -lc cat x")]
    assert absent("file", "/w/src/a.py", "nothing of it")
    assert not absent("file", "/w/src/a.py", "we edited a.py")  # its file name alone keeps it
    assert not absent("file", "C:\\w\\a.py", "see a.py")  # a Windows path's file name too
    assert not absent("request", "Bash: pytest -q", "ran pytest -q twice")

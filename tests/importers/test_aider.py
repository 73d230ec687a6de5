"""Aider's chat history, read from the hand-written cases (cases/valid/aider_*.md, written from the layout
of real `.aider.chat.history.md` files): one model call per reply, the usage of its Tokens line, the model
the run announced, the cost aider printed, and `/clear` and the visible summaries as compaction points."""

from pathlib import Path

import pytest

from compaction import check_pairs, replay
from compaction.agents import agent_of
from compaction.agents.aider.log.blocks import read_blocks
from compaction.agents.aider.log.commands import Command, command_of, message_of, switch_target
from compaction.agents.aider.log.tokens import figure, read_tokens_line
from compaction.corpus import discover
from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.importers.formats import detect_text, find
from compaction.model.calibration import recorded_context

CASES = Path(__file__).parent / "cases" / "valid"


def load(name: str):
    return load_conversation(CASES / name)


def calls(conversation) -> list[int]:
    return [index for index, message in enumerate(conversation.messages) if message["role"] == "assistant"]


def tokens_lines(name: str) -> int:
    """Counted plainly, as a person would: the lines that start `> Tokens:`."""
    return sum(line.startswith("> Tokens:") for line in (CASES / name).read_text(encoding="utf-8").splitlines())


def test_a_history_is_recognised_by_its_first_line_and_loads_as_aider():
    conversation = load("aider_code_session.md")
    assert conversation.format == "aider" and agent_of("aider").title == "Aider"
    assert find("aider").suffixes == (".aider.chat.history.md",)
    assert detect_text("# Notes\n\nThe aider chat started at noon.\n") is None  # a README is not claimed
    assert detect_text("\n# aider chat started at 2026-03-02 10:15:04\n\n").name == "aider"


def test_a_corpus_folder_finds_the_history_by_its_name_and_no_readme(tmp_path):
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / ".aider.chat.history.md").write_bytes((CASES / "aider_code_session.md").read_bytes())
    (tmp_path / "shop" / "README.md").write_text("# Shop\n\nA shop.\n", encoding="utf-8")
    [found] = discover(tmp_path)
    assert (found.relative, found.project) == ("shop/.aider.chat.history.md", "shop")
    assert load_conversation(found.path).format == "aider"


def test_one_call_per_reply_with_the_usage_of_its_tokens_line():
    conversation = load("aider_code_session.md")
    # three replies, three Tokens lines: the reply's own `#### Changes` heading and `>>>>>>> REPLACE` line
    # are the reply's, and the reply aider sent itself after the file was added is a call of its own
    assert calls(conversation) == [1, 3, 5] and tokens_lines("aider_code_session.md") == 3
    usage = [conversation.usage[index] for index in calls(conversation)]
    model = "anthropic/claude-sonnet-4-5"  # "Main model: anthropic/claude-sonnet-4-5 with diff edit format"
    # `1.8k sent, 653 received` and the Cost part: $0.0021 for the call
    assert usage[0] == {"input_tokens": 1_800, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                        "output_tokens": 653, "model": model, "cost_usd": 0.0021}
    # `21k sent, 12k cache write, 8.5k cache hit, 120 received.` with its Cost on the next line: the reads
    # and writes are part of what was sent
    assert usage[2] == {"input_tokens": 500, "cache_creation_input_tokens": 12_000,
                        "cache_read_input_tokens": 8_500, "output_tokens": 120, "model": model, "cost_usd": 0.05}
    assert recorded_context(usage[2]) == 21_000
    assert "#### Changes" in conversation.messages[1]["content"]
    assert conversation.messages[1]["content"].splitlines()[-2] == ">>>>>>> REPLACE"
    assert conversation.messages[4]["content"].startswith("output.py\nAdd file to the chat?")  # the reflection
    assert conversation.metadata["reflections"] == 1 and conversation.metadata["printed_cost_usd"] == 0.0596
    rounded = [w for w in conversation.warnings if w.kind == "rounded_tokens"]
    assert len(rounded) == 1 and "approximate" in rounded[0].message and check_pairs(conversation.messages) == []


@pytest.mark.parametrize(("printed", "count", "rounded"), [
    ("653", 653, False), ("1.8k", 1_800, True), ("9.9k", 9_900, True), ("21k", 21_000, True),
    ("5,244", 5_244, False), ("0", 0, False)])
def test_printed_counts_read_as_aider_formats_them(printed, count, rounded):
    assert figure(printed) == (count, rounded)


def test_every_wording_of_the_tokens_line_reads():
    old = read_tokens_line("Tokens: 5,244 sent, 3,900 cached, 604 received. Cost: $0.02 request, $0.02 session.")
    assert (old.sent, old.cache_hit, old.received, old.rounded, old.cost_usd) == (5_244, 3_900, 604, False, 0.02)
    split = read_tokens_line("Tokens: 15k sent, 13k cache write, 1.6k cache hit, 133 received.\n"
                             "Cost: $0.05 message, $0.05 session.")
    assert (split.sent, split.cache_write, split.cache_hit, split.cost_usd) == (15_000, 13_000, 1_600, 0.05)
    unpriced = read_tokens_line("Tokens: 21k sent, 151 received.")
    assert unpriced.cost_usd is None and unpriced.rounded
    caveat = read_tokens_line("Tokens: 529 sent, 90 received, cache costs not included. Cost: $0.00024 message, "
                              "$0.00024 session.")
    assert (caveat.sent, caveat.cost_usd) == (529, 0.00024)
    assert read_tokens_line("Tokens: about 700 sent, 20 received.") is None


def test_a_cached_share_larger_than_sent_was_not_part_of_it():
    # aider of August 2024 with Anthropic's counts wrote the uncached input as `sent` (a real line:
    # "Tokens: 492 sent, 1,278 cached, 72 received."); later ones write the whole prompt
    text = ("\n# aider chat started at 2024-08-19 10:00:00\n\n#### hi  \n\nHello.\n\n"
            "> Tokens: 492 sent, 1,278 cached, 72 received. Cost: $0.0026 message, $0.0026 session.  \n")
    usage = load_conversation(text.encode(), name="h.md").usage[1]
    assert (usage["input_tokens"], usage["cache_read_input_tokens"], recorded_context(usage)) == (492, 1_278, 1_770)


def test_commands_are_matched_as_aider_matches_them():
    assert command_of("/cle") == Command("clear", "") and command_of("/c") == Command(None, "")  # /c: ambiguous
    assert message_of(command_of("/ask why\nand how")) == "why\nand how" and command_of("fix it") is None
    assert switch_target(command_of("/ask")) == "ask" and switch_target(command_of("/chat-mode architect")) == \
        "architect"
    assert switch_target(command_of("/model gpt-4.1")) == "model" and message_of(command_of("!ls")) is None


def test_commands_clear_and_calls_without_text():
    conversation = load("aider_clear_and_commands.md")
    texts = [(m["role"], m["content"]) for m in conversation.messages]
    # /add sends nothing; /ask sends its question; the typed answer to a question is not a message
    assert texts[0] == ("user", "what does notes.txt list?")
    assert not any("Add file to the chat" in text or text.startswith("/") for _, text in texts)
    # the interrupted reply has no Tokens line; the call cut off before any text has one (9.9k sent)
    assert conversation.usage[3] is None
    assert texts[5] == ("assistant", "") and conversation.usage[5]["input_tokens"] == 9_900
    # two /clear: the first empties a chat of four messages, the second an empty one (no compaction)
    assert conversation.metadata["compact_boundaries"] == [
        {"index": 4, "trigger": "clear", "pre_tokens": 640, "line": 28, "command": "/clear"}]
    assert conversation.metadata["clear_commands"] == 2
    # the unreadable Tokens line is named by its line, and its call has no usage
    unread = next(w for w in conversation.warnings if w.kind == "tokens_unread")
    assert unread.line == 51 and conversation.usage[7] is None
    # a new run and a /clear each start an empty chat: two person messages in a row there are expected
    assert not [w for w in conversation.warnings if w.kind == "same_role"]
    assert [run["index"] for run in conversation.metadata["runs"]] == [0, 6]


def test_as_recorded_sends_only_what_followed_the_clear():
    conversation = load("aider_clear_and_commands.md")
    result = replay(conversation, strategy="as-recorded")
    after = next(record for record in result.calls if record.index > 4)
    assert "log_compaction" in after.acted and result.history(after.call).origins == [4]
    assert after.exact and after.tokens == 9_900


def test_the_summaries_the_file_shows_are_compaction_points():
    conversation = load("aider_visible_summaries.md")
    found = [(b["index"], b["trigger"], b["cause"], b["summary_in_file"])
             for b in conversation.metadata["compact_boundaries"]]
    # --verbose's notice after the first reply; the switch to architect (another edit format) summarises,
    # the switch to ask mode does not (cmd_chat_mode: summarize_from_coder = False)
    assert found == [(2, "summary", "the --verbose notice", False),
                     (4, "summary", "the switch to the architect edit format", False)]
    assert [b["pre_tokens"] for b in conversation.metadata["compact_boundaries"]] == [3_100, 3_300]


def test_the_older_layout_and_a_notice_of_several_lines():
    conversation = load("aider_2024_layout.md")
    # the pytest output a `!` command printed (one notice of four lines, a blank one among them) is no reply
    assert calls(conversation) == [1, 3] and tokens_lines("aider_2024_layout.md") == 2
    assert conversation.usage[1] == {"input_tokens": 1_344, "cache_creation_input_tokens": 0,
                                     "cache_read_input_tokens": 3_900, "output_tokens": 604,
                                     "model": "claude-3-5-sonnet-20240620", "cost_usd": 0.02}
    assert conversation.metadata["weak_models"] == ["claude-3-haiku-20240307"]
    assert not any(w.kind == "rounded_tokens" for w in conversation.warnings)  # whole numbers: exact
    notice = [b for b in read_blocks((CASES / "aider_2024_layout.md").read_text()) if b.kind == "notice"]
    assert any(b.text.startswith("....F\n\nFAILED") and b.text.endswith("in 0.31s") for b in notice)


def test_a_history_of_commands_only_is_refused_by_name():
    text = "\n# aider chat started at 2026-05-01 12:00:00\n\n#### /add x.py  \n> Added x.py to the chat  \n"
    with pytest.raises(ConversationError, match=r"^h\.md: no message to the model: .* 1 run\(s\) and 1 command"):
        load_conversation(text.encode(), name="h.md")

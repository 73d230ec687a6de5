"""Aider's chat-history summarisation (aider/history.py ChatSummary), worked out by hand on generated chats:
the limit from the window, the newest messages under half of it kept, the older ones summarised, again
while the result is too big, and the `.aider.conf.yml` key that carries the limit."""

import yaml

from compaction import OutputStore, Settings, SummarizerError, check_pairs, generate, prepare, replay
from compaction.agents.aider.markers import ACKNOWLEDGEMENT, SUMMARY_PREFIX
from compaction.agents.aider.preset import history_limit
from compaction.export import export
from compaction.model.markers import is_summary
from compaction.strategies import build


class WrittenSummary:
    """A summariser that writes `text` and keeps what it was given to read."""

    name = "written"

    def __init__(self, text="I asked you to build the parser and you did."):
        self.text = text
        self.read: list[list] = []

    def summarize(self, messages, focus=None):
        self.read.append(list(messages))
        return self.text


class Down:
    name = "down"

    def summarize(self, messages, focus=None):
        raise SummarizerError("the weak model is down")


def said(role: str, number: int, chars: int) -> dict:
    """A message of exactly `chars` characters as the lab measures it (len(str(message)))."""
    empty = len(str({"role": role, "content": ""}))
    return {"role": role, "content": f"{role} {number} ".ljust(chars - empty, "x")}


def chat(exchanges: int) -> list[dict]:
    """`exchanges` done exchanges of 100 + 300 tokens (400 and 1,200 characters, characters / 4), then the
    person's newest message."""
    messages = []
    for number in range(exchanges):
        messages += [said("user", number, 400), said("assistant", number, 1_200)]
    return messages + [said("user", exchanges, 400)]


def step(messages, summarizer=None, **params):
    return build("aider", params)(prepare(messages), Settings(), OutputStore.temporary(), summarizer)


def test_the_limit_is_a_sixteenth_of_the_window_from_1024_to_8192():
    assert history_limit({"window_tokens": 200_000, "max_chat_history_tokens": 0}) == 8_192
    assert history_limit({"window_tokens": 128_000, "max_chat_history_tokens": 0}) == 8_000
    assert history_limit({"window_tokens": 8_000, "max_chat_history_tokens": 0}) == 1_024
    assert history_limit({"window_tokens": 128_000, "max_chat_history_tokens": 3_000}) == 3_000


def test_it_summarises_only_once_the_done_messages_pass_the_limit():
    messages = chat(5)  # done: 5 x 400 = 2,000 tokens; the person's newest message is not counted
    assert step(messages, WrittenSummary(), max_chat_history_tokens=2_000).acted == ()
    acted = step(messages, WrittenSummary(), max_chat_history_tokens=1_999)
    assert acted.acted == ("summary",) and is_summary(acted.history.messages[0])


def test_the_newest_under_half_stay_and_the_older_ones_become_the_summary():
    messages = chat(10)  # done: 4,000 tokens over 2,000
    summarizer = WrittenSummary()
    sent = step(messages, summarizer, max_chat_history_tokens=2_000).history
    # from the end: 300, 400, 700, 800 tokens stay under 1,000; the next reply would make 1,100; what is
    # kept starts at a person's message, after the reply that ends the head
    assert summarizer.read == [messages[:16]]
    assert sent.messages[0] == {"role": "user", "content": f"{SUMMARY_PREFIX}\n\n{summarizer.text}"}
    assert sent.messages[1:] == messages[16:] and sent.origins == [None, *range(16, 21)]


def test_the_summary_reads_only_the_oldest_messages_the_summariser_takes():
    summarizer = WrittenSummary()
    # 1,000 tokens for the head (the weak model's window less 512): 100 + 300 + 100 + 300 + 100 fit, the
    # sixth message would make 1,100; the rest of the head is dropped unread, as aider drops it
    sent = step(chat(10), summarizer, max_chat_history_tokens=2_000, summarizer_window_tokens=1_512).history
    assert summarizer.read == [chat(10)[:5]] and sent.origins == [None, *range(16, 21)]


def test_a_summary_still_too_big_is_summarised_again_then_everything_with_an_ok():
    summarizer = WrittenSummary("x" * 5_000)  # a summary message of about 1,270 tokens
    sent = step(chat(10), summarizer, max_chat_history_tokens=2_000).history
    # the summary and the 800 tokens kept pass 2,000: the second pass has five done messages, the summary
    # among them too big to keep, so it summarises them all, and an "Ok." answers that summary
    assert len(summarizer.read) == 2 and summarizer.read[1][1:] == chat(10)[16:20]
    assert [m["role"] for m in sent.messages] == ["user", "assistant", "user"]
    assert sent.messages[1] == {"role": "assistant", "content": ACKNOWLEDGEMENT}
    assert sent.messages[2] == chat(10)[20] and sent.origins == [None, None, 20]


def test_a_short_history_is_summarised_whole():
    messages = [said("user", 0, 4_000), said("assistant", 0, 8_000), said("user", 1, 400)]
    sent = step(messages, WrittenSummary(), max_chat_history_tokens=1_024).history
    assert sent.origins == [None, None, 2] and sent.messages[1]["content"] == ACKNOWLEDGEMENT


def test_a_failed_summary_leaves_the_chat_as_it_was():
    messages = chat(10)
    done = step(messages, Down(), max_chat_history_tokens=2_000)
    assert done.history.messages == messages and done.acted == ("summary",)
    assert done.events[0].error == "the weak model is down"


def test_replayed_on_a_long_generated_chat_the_done_part_stays_near_the_limit():
    messages = chat(60)
    result = replay(messages, strategy=build("aider", {"max_chat_history_tokens": 2_000}),
                    summarizer=WrittenSummary())
    summarised = [record.call for record in result.calls if "summary" in record.acted]
    # 400 tokens an exchange: call 6 is the first whose done messages (six exchanges, 2,400) pass 2,000;
    # each summary keeps two exchanges beside a summary of about 30 tokens (830), so the done messages pass
    # 2,000 again three exchanges later: calls 6, 9, ..., 57
    assert summarised == list(range(6, 60, 3))
    for record in result.calls[6:]:
        sent = result.history(record.call)
        assert is_summary(sent.messages[0]) and sent.origins[-1] == record.index - 1
    assert result.totals["tokens_sent"] < result.totals["raw_tokens_sent"] / 3


def test_on_a_generated_coding_session_tool_turns_stay_with_their_calls():
    messages = generate("realistic", turns=120, seed=11)
    result = replay(messages, strategy=build("aider", {"max_chat_history_tokens": 8_000}), keep_histories=True)
    assert any("summary" in record.acted for record in result.calls)
    for record in result.calls:
        assert check_pairs(result.history(record.call).messages) == []


def test_the_conf_key_carries_the_limit_the_replay_used():
    assert yaml.safe_load(export("aider", form="aider").text) == {"max-chat-history-tokens": 8_192}
    tuned = export("aider", {"window_tokens": 128_000}, form="aider")
    assert yaml.safe_load(tuned.text) == {"max-chat-history-tokens": 8_000} and tuned.filename == ".aider.conf.yml"
    assert "Aider's own default for a model of 128,000 input tokens" in " ".join(tuned.notes)
    set_one = export("aider", {"max_chat_history_tokens": 3_000}, form="aider")
    assert yaml.safe_load(set_one.text) == {"max-chat-history-tokens": 3_000}
    assert any(note.startswith("Cannot be set in Aider: the share kept whole") for note in set_one.notes)

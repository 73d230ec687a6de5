"""Gemini CLI's JSON-lines chat recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, since April
2026) line by line: the first line holds the session's fields, then each message is a line (written
again, whole, when it changes), `{"$rewindTo": id}` drops a message and all after it, and `{"$set":
{...}}` updates the fields (with `messages`: the history replaced, a checkpoint). The calls already made
stay counted after a rewind or a checkpoint: they were paid for; the next call shows the context left.
"""

from compaction.agents.gemini_cli.live_messages import GeminiMessages
from compaction.live.events import Event, Fact, Note

FORMAT = "gemini-cli"


def is_fields_line(value: dict) -> bool:
    return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str) \
        and "type" not in value


class GeminiLines:
    def __init__(self):
        self._messages = GeminiMessages()

    def read(self, number: int, line: dict) -> list[Event]:
        if isinstance(line.get("$rewindTo"), str):
            return [Note(number, "the person rewound the conversation here: later messages were dropped (the "
                                 "calls already made stay counted)", "rewind")]
        update = line.get("$set")
        if isinstance(update, dict):
            if isinstance(update.get("messages"), list):
                return [Note(number, "the history was replaced here (a checkpoint); the next call shows what it "
                                     "holds", "checkpoint")]
            return []
        if is_fields_line(line):
            return [Fact("session_id", line["sessionId"])]
        return self._messages.read(number, line)

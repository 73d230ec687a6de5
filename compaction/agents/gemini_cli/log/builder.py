"""Gemini turns as API messages, for the chat recording and the stream-json output alike.

A model response is one assistant message (thinking, text, its calls); the results of its calls are the
next user message, in call order, then whatever the person wrote next. A call with no result is
answered with a note of its status when the conversation went on past it (the recording does not say
what was sent; an unanswered call would be refused), and left waiting when the log ends there.
"""

from dataclasses import dataclass, field

from compaction.model.conversation import LoadWarning


@dataclass
class Built:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


class Builder:
    def __init__(self):
        self.out = Built()
        self.response: int | None = None  # index of the last response's message
        self.calls: list[str] = []  # its calls, in order
        self.statuses: dict[str, str] = {}
        self.results: dict[str, dict] = {}
        self.user_blocks: list[dict] = []
        self.user_time: str | None = None
        self.person_spoke = False  # user text since the last response: a new response cannot merge into it
        self.unplaced: list[dict] = []  # compaction points waiting for the next message's index

    def count(self, name: str, amount: int = 1) -> None:
        self.out.counts[name] = self.out.counts.get(name, 0) + amount

    @property
    def can_extend(self) -> bool:
        """Whether calls recorded apart still belong to the last response (nothing of the person since)."""
        return self.response is not None and not self.person_spoke and not self.user_blocks

    def start_response(self, blocks: list[dict], timestamp: str | None, usage: dict | None) -> int:
        self.finish_user()
        index = self._append("assistant", list(blocks), timestamp)
        self.out.usage[index] = usage
        self.response, self.calls, self.statuses, self.results = index, [], {}, {}
        self.person_spoke = False
        return index

    def add_calls(self, uses: list[dict], statuses: dict[str, str]) -> None:
        assert self.response is not None, "start_response first"
        content = self.out.messages[self.response]["content"]
        for use in uses:
            if use["id"] in self.calls:
                self.count("calls_repeated")
                continue
            content.append(use)
            self.calls.append(use["id"])
        self.statuses.update(statuses)

    def add_result(self, call_id: str, block: dict, timestamp: str | None = None) -> bool:
        """Place a result; False when it answers no call of the last response (nor repeats one)."""
        if call_id in self.calls and call_id not in self.results:
            self.results[call_id] = block
            if self.user_time is None:
                self.user_time = timestamp  # when the tool finished: the result's turn
            return True
        if call_id in self.results:
            return True  # the same result written twice (in the call's record and as a tool turn)
        self.count("orphan_results")
        return False

    def add_user(self, blocks: list[dict], timestamp: str | None) -> None:
        if not blocks:
            return
        if not self.user_blocks and self.user_time is None:
            self.user_time = timestamp
        self.user_blocks.extend(blocks)
        self.person_spoke = True

    def compaction_point(self, boundary: dict) -> None:
        """A compaction noted here: it takes the index of the next message written."""
        self.unplaced.append(boundary)
        self.out.boundaries.append(boundary)

    def finish_user(self, at_end: bool = False) -> None:
        calls = self.calls
        if not self.user_blocks and (at_end and not self.results or not calls):
            self.calls = []
            return
        results = []
        for call_id in calls:
            block = self.results.get(call_id)
            if block is None:
                status = self.statuses.get(call_id)
                block = {"type": "tool_result", "tool_use_id": call_id, "is_error": True,
                         "content": f"[no result recorded; status {status}]" if status else "[no result recorded]"}
                self.count("calls_without_result")
            results.append(block)
        self._append("user", results + self.user_blocks, self.user_time)
        self.calls, self.results, self.user_blocks, self.user_time = [], {}, [], None

    def _append(self, role: str, content: list, timestamp: str | None) -> int:
        index = len(self.out.messages)
        for boundary in self.unplaced:
            boundary["index"] = index
        self.unplaced = []
        self.out.messages.append({"role": role, "content": content})
        self.out.usage.append(None)
        self.out.timestamps.append(timestamp)
        return index

    def finish(self) -> Built:
        self.finish_user(at_end=True)
        for boundary in self.unplaced:
            boundary["index"] = len(self.out.messages)
        if self.out.counts.get("calls_without_result"):
            self.out.warnings.append(LoadWarning(
                f"{self.out.counts['calls_without_result']:,} tool call(s) have no result recorded though the "
                "conversation went on; each is answered with a note of its status", kind="no_result"))
        return self.out

"""The history an incremental replay carries from call to call, changed in place.

A `History` is a value: every layer of the reference loop builds new lists, and at every call the loop copies
the whole history to append a message. An incremental replay instead keeps one `RunningHistory` and
changes it in place (append, replace one message, cut a range, start again after a summary), keeping
beside the messages what the layers and measures would otherwise work out by walking them at every call:

- the running size (each message's size added once, never `len(str(list))` again);
- `keys`, rising with the position, so a message of the conversation is found by bisection (origins
  rise along a history; a made message takes its left neighbour's key);
- the messages holding tool results, and how many result blocks there are (L2's window);
- which original messages are still the original objects and which a layer rewrote (the blind-
  reference check asks this for every term);
- what the previous call sent, from the first position changed since (the cache model's shared prefix).

`snapshot()` gives the plain `History` of the moment, for what keeps a call's history.
"""

from bisect import bisect_left, bisect_right

from compaction.model.history import History, RunContext, anchored_tokens
from compaction.model.messages import has_tool_result, has_tool_use
from compaction.model.prepared import Prepared
from compaction.model.sizes import list_chars


class RunningHistory:
    __slots__ = ("prepared", "originals", "result_blocks", "run", "_uses", "messages", "sizes", "origins", "keys", "total",
                 "uses", "answers", "untouched", "changed", "results", "result_counts", "result_count", "version",
                 "sent_length", "first_change", "sent_tail", "anchor")

    def __init__(self, prepared: Prepared, run: RunContext | None = None):
        self.prepared = prepared
        self.originals = prepared.messages
        self.result_blocks = prepared.result_blocks
        self.run = run or RunContext()
        self._uses = prepared.index("uses_tool", dict)  # origin -> whether it holds a tool_use, as asked
        self.messages: list = []
        self.sizes: list[int] = []
        self.origins: list[int | None] = []
        self.keys: list[int] = []
        self.total = 0  # sum of sizes
        # per position: whether the message holds a tool_use / a tool_result (L1's pair protection asks)
        self.uses: list[bool] = []
        self.answers: list[bool] = []
        self.untouched: set[int] = set()  # origins whose message here is the original object
        self.changed: set[int] = set()  # origins whose message here a layer rewrote
        self.results: list[int] = []  # origins of the messages holding tool results, in order
        self.result_counts: list[int] = []  # how many tool_result blocks each of those holds
        self.result_count = 0  # their sum
        self.version = 0  # changes other than appends so far: equal versions, the same messages
        self.sent_length = 0  # messages the previous call sent
        self.first_change: int | None = None  # lowest position changed since then (None: none)
        self.sent_tail: list = []  # what the previous call sent from first_change on (empty while it is None)
        self.anchor: tuple[int, int] | None = None  # as History.anchor: the estimate measures from there

    # what a History offers, for the code that reads both (lookups.new_outputs, the measures)
    @property
    def overhead(self) -> int:
        return self.prepared.overhead

    @property
    def size(self) -> int:
        return list_chars(self.total, len(self.messages))

    @property
    def context_size(self) -> int:
        return list_chars(self.total, len(self.messages)) + self.prepared.overhead

    @property
    def context_tokens(self) -> int:
        """The estimated tokens of a call sending these messages (History.context_tokens, nothing known)."""
        return anchored_tokens(self.prepared.token_model, self.anchor, self.context_size)

    def __len__(self) -> int:
        return len(self.messages)

    def tool_name(self, tool_use_id, origin: int | None = None) -> str:
        return self.prepared.tool_names.name(tool_use_id, origin)

    def position(self, origin: int) -> int | None:
        """Where the conversation's message `origin` sits here, or None."""
        position = bisect_left(self.keys, origin)
        return position if position < len(self.origins) and self.origins[position] == origin else None

    def _uses_tool(self, origin: int) -> bool:
        """has_tool_use of the original message `origin`, found once per conversation. A layer's version of a
        message keeps its blocks' types, so it holds a tool_use (a tool_result) when the original does."""
        found = self._uses.get(origin)
        if found is None:
            found = self._uses[origin] = has_tool_use(self.originals[origin])
        return found

    # changes
    def append(self, origin: int) -> None:
        """The conversation's message `origin`, as it is."""
        self.messages.append(self.originals[origin])
        size = self.prepared.sizes[origin]
        self.sizes.append(size)
        self.origins.append(origin)
        self.keys.append(origin)
        self.total += size
        self.untouched.add(origin)
        found = self._uses.get(origin)
        self.uses.append(self._uses_tool(origin) if found is None else found)
        blocks = self.result_blocks.positions(origin)
        self.answers.append(bool(blocks))
        if blocks:
            self.results.append(origin)
            self.result_counts.append(len(blocks))
            self.result_count += len(blocks)

    def replace(self, position: int, message: dict, size: int) -> None:
        """A layer's new version of the message at `position` (same origin, same blocks)."""
        self._keep_sent(position)
        self.messages[position] = message
        self.total += size - self.sizes[position]
        self.sizes[position] = size
        origin = self.origins[position]
        if origin is not None:
            self.untouched.discard(origin)
            self.changed.add(origin)
        self.version += 1

    def cut(self, start: int, end: int, marker: dict, marker_size: int, dropped: tuple[int, ...]) -> None:
        """messages[start:end] become `marker` (L1's snip); `dropped`: their origins, None left out."""
        self._keep_sent(start)
        if dropped:
            self.untouched.difference_update(dropped)
            self.changed.difference_update(dropped)
            first = bisect_left(self.results, dropped[0])
            last = bisect_right(self.results, dropped[-1])
            if last > first:
                self.result_count -= sum(self.result_counts[first:last])
                del self.results[first:last], self.result_counts[first:last]
        self.total += marker_size - sum(self.sizes[start:end])
        self.messages[start:end] = [marker]
        self.sizes[start:end] = [marker_size]
        self.origins[start:end] = [None]
        self.keys[start:end] = [self.keys[start - 1] if start else -1]
        self.uses[start:end] = [has_tool_use(marker)]
        self.answers[start:end] = [has_tool_result(marker)]
        self.version += 1

    def reset(self, history: History) -> None:
        """Everything becomes `history`: a summary's output (reactive compaction keeps the newest messages)."""
        self._keep_sent(0)
        self.messages = list(history.messages)
        self.sizes = list(history.sizes)
        self.origins = list(history.origins)
        self.total = sum(self.sizes)
        self.keys, key = [], -1
        self.uses, self.answers = [], []
        self.untouched, self.changed, self.results, self.result_counts, self.result_count = set(), set(), [], [], 0
        for message, origin in zip(self.messages, self.origins, strict=True):
            if origin is None:
                self.uses.append(has_tool_use(message))
                self.answers.append(has_tool_result(message))
            else:
                key = origin
                (self.untouched if message is self.originals[origin] else self.changed).add(origin)
                blocks = self.result_blocks.positions(origin)
                self.uses.append(self._uses_tool(origin))
                self.answers.append(bool(blocks))
                if blocks:
                    self.results.append(origin)
                    self.result_counts.append(len(blocks))
                    self.result_count += len(blocks)
            self.keys.append(key)
        self.version += 1

    def _keep_sent(self, position: int) -> None:
        """Before changing `position`: keep what the previous call sent from there on, for the cache model."""
        first = self.first_change
        if position >= self.sent_length or (first is not None and position >= first):
            return
        if first is None:
            self.sent_tail = self.messages[position:self.sent_length]
        else:  # nothing before `first` has changed nor moved since
            self.sent_tail = self.messages[position:first] + self.sent_tail
        self.first_change = position

    # the cache model
    def mark_sent(self) -> None:
        """These messages are what a call sent: the next call is compared with them."""
        self.sent_length = len(self.messages)
        self.first_change = None
        self.sent_tail = []

    def shared_with_sent(self) -> tuple[int, dict | None]:
        """(how many leading messages are identical to what the previous call sent, that call's message at
        the first difference, None when it sent no more): cache.shared_prefix_chars without a pass over
        the history. Equal messages count as the same, as list comparison does."""
        sent_length, messages = self.sent_length, self.messages
        end = min(sent_length, len(messages))
        first = self.first_change
        if first is None:
            return end, None
        count, tail = first, self.sent_tail
        while count < end and (tail[count - first] is messages[count] or tail[count - first] == messages[count]):
            count += 1
        return count, tail[count - first] if count < sent_length else None

    def prefix_chars(self, count: int) -> int:
        """sum(sizes[:count]), summing whichever side of `count` is shorter."""
        sizes = self.sizes
        return sum(sizes[:count]) if count <= len(sizes) // 2 else self.total - sum(sizes[count:])

    # copies
    def fork(self) -> "RunningHistory":
        """An independent copy (the sweep's branches): what either changes, the other does not see."""
        copy = RunningHistory.__new__(RunningHistory)
        for name in ("prepared", "originals", "result_blocks", "run", "_uses", "total", "result_count", "version",
                     "sent_length", "first_change", "anchor"):
            setattr(copy, name, getattr(self, name))
        for name in ("messages", "sizes", "origins", "keys", "uses", "answers", "results", "result_counts"):
            setattr(copy, name, list(getattr(self, name)))
        copy.untouched, copy.changed = set(self.untouched), set(self.changed)
        copy.sent_tail = list(self.sent_tail)
        return copy

    def snapshot(self, known_tokens: int | None = None) -> History:
        """The plain History of these messages (new lists: later changes here do not reach it)."""
        history = History(list(self.messages), list(self.sizes), list(self.origins), self.prepared, self.run)
        history._size = list_chars(self.total, len(self.messages))
        history.known_tokens = known_tokens
        history.anchor = None if known_tokens is not None else self.anchor
        return history

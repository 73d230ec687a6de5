"""The uncompacted side of a replay: the same session never compacted."""

from collections.abc import Callable

from compaction.measures.billing import Billing
from compaction.model.calibration import recorded_context
from compaction.model.history import History, anchored_tokens
from compaction.model.sizes import list_chars
from compaction.replay import lookups


class Uncompacted:
    """What each call would send without compaction, and what it would cost with its cache reading the
    whole previous prompt (the history only grows), until the window refuses it. The summaries the agent
    itself wrote when it compacted are not part of it. Its tokens are measured as a strategy's history is
    (History.context_tokens): the recorded ones where the log says them, else from the last recorded call
    plus what joined since (History.anchor), so a strategy that changes nothing sends exactly this. A
    handful of numbers carried from call to call."""

    def __init__(self, prepared: History, billing: Billing, window: Callable[[int], int], from_log: bool = True):
        """`window`: the window the call at a message index is held to (ReplayContext.window_at)."""
        self.prepared, self.billing, self.window, self.from_log = prepared, billing, window, from_log
        self.before = lookups.first_boundary_index(prepared)  # until then, it is what the agent sent
        # at the call right after the log's first compaction, the log says what the whole history held
        # then: the agent's count when it decided to compact (preTokens)
        first = min((b for b in prepared.recorded.boundaries if isinstance(b, dict) and b.get("index") == self.before),
                    key=lambda b: b["index"], default=None)
        self.pre_tokens = first.get("pre_tokens") if first else None
        self.after_boundary = next((i for i in range(self.before, len(prepared.messages))
                                    if prepared.messages[i].get("role") == "assistant"), None)
        self.chars_so_far = 0  # characters of the messages before the current one
        self.count = 0  # how many messages those are
        self.previous: tuple[int, str | None] | None = None  # (tokens, time) of the last call that could run
        self.anchor: tuple[int, int] | None = None  # (tokens, context characters) of the last call the log knows
        # a client's trace: what the client counted at each call (response index -> (tokens, characters))
        self.decisions = {int(i): (int(t), int(c)) for i, t, c in prepared.recorded.metadata.get("decision_counts") or ()}
        self._decided: tuple[int, int] | None = None

    def context_chars(self) -> int:
        """The characters the tokens `known` gave measured: the whole history's so far, or for a client's
        trace, the client's history at that call."""
        if self._decided is not None:
            return self._decided[1]
        return self.whole_chars()

    def whole_chars(self) -> int:
        return list_chars(self.chars_so_far, self.count) + self.prepared.overhead

    def known(self, index: int) -> int | None:
        """The tokens the call at `index` counts from, where the log says: what the whole history held, or
        for a compacting client's trace, what the client counted (importers/trace.py: decision_count, the
        last response's usage and the estimate of what was added since), so the replay decides on it too."""
        self._decided = self.decisions.get(index) if self.from_log else None
        if self._decided is not None:
            return self._decided[0]
        return self.whole_known(index)

    def whole_known(self, index: int) -> int | None:
        """The tokens the whole history held at the call at `index`, where the log says it."""
        if not self.from_log:
            return None
        usage = self.prepared.recorded.usage
        if index < self.before:
            found = recorded_context(usage[index]) if index < len(usage) else None
            return found if found else None  # a call that recorded no tokens says nothing of the history
        if index == self.after_boundary and isinstance(self.pre_tokens, int) and self.pre_tokens > 0:
            return self.pre_tokens
        return None

    def call(self, index: int, output_tokens: int, time: str | None) -> tuple[int, int, bool, float]:
        """(characters, tokens, whether the window accepts it, cost) of the call at message `index`."""
        prepared = self.prepared
        chars = self.whole_chars()
        usage = prepared.recorded.usage[index] if index < len(prepared.recorded.usage) else None
        known = self.whole_known(index)
        if known is not None:
            self.anchor = (known, chars)
        tokens = known if known is not None else anchored_tokens(prepared.token_model, self.anchor, chars)
        runs = tokens <= self.window(index)
        cost = 0.0
        if runs:
            price = self.billing.at(index)
            previous = self.previous
            read = 0 if previous is None or not price.holds(previous[1], time) else min(previous[0], tokens)
            # what the agent sent, until its own first compaction: its recorded reads and writes
            cost = price.as_recorded(usage, output_tokens) if known is not None and index < self.before and usage is not None \
                else price.cached(read, tokens - read, output_tokens)
            self.previous = (tokens, time)
        return chars, tokens, runs, cost

    def append(self, index: int) -> None:
        if index not in self.prepared.recorded.agent_summaries:
            self.chars_so_far += self.prepared.sizes[index]
            self.count += 1


def uncompacted_tokens(prepared: History, index: int) -> int:
    """The tokens the call answered by message `index` (len(messages): the call after the last) sends had
    nothing ever been compacted, as a replay counts them (its `raw_tokens`): the log's own figures where it
    says them, else measured from the last call it does. One figure for Conversation and Replay."""
    side = Uncompacted(prepared, Billing(prepared.recorded.usage), lambda _: 0)  # no window: no cost priced
    for position in range(min(index, len(prepared.messages))):
        if prepared.messages[position].get("role") == "assistant":
            side.call(position, 0, None)  # each call anchors the next, as in the replay
        side.append(position)
    return side.call(index, 0, None)[1]

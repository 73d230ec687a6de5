"""The uncompacted side of a replay: the same session never compacted."""

from compaction.measures.billing import Billing
from compaction.measures.cache import expired
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.sizes import list_chars
from compaction.replay import lookups


class Uncompacted:
    """What each call would send without compaction, and what it would cost with its cache reading the
    whole previous prompt (the history only grows), until the window refuses it. The summaries the agent
    itself wrote when it compacted are not part of it. A handful of numbers carried from call to call."""

    def __init__(self, prepared: History, billing: Billing, window: int):
        self.prepared, self.billing, self.window = prepared, billing, window
        self.before = lookups.first_boundary_index(prepared)  # until then, it is what the agent sent
        self.chars_so_far = 0  # characters of the messages before the current one
        self.count = 0  # how many messages those are
        self.previous: tuple[int, str | None] | None = None  # (tokens, time) of the last call that could run

    def call(self, index: int, output_tokens: int, time: str | None) -> tuple[int, int, bool, float]:
        """(characters, tokens, whether the window accepts it, cost) of the call at message `index`."""
        prepared = self.prepared
        chars = list_chars(self.chars_so_far, self.count) + prepared.overhead
        usage = prepared.recorded.usage[index] if index < len(prepared.recorded.usage) else None
        known = recorded_context(usage) if index < self.before else None
        tokens = known if known else prepared.token_model.tokens(chars)
        runs = tokens <= self.window
        cost = 0.0
        if runs:
            price = self.billing.at(index)
            fresh = self.previous is None or expired(self.previous[1], time, price.ttl_s)
            read = 0 if fresh else min(self.previous[0], tokens)
            cost = price.cached(read, tokens - read, output_tokens)
            self.previous = (tokens, time)
        return chars, tokens, runs, cost

    def append(self, index: int) -> None:
        if index not in self.prepared.recorded.agent_summaries:
            self.chars_so_far += self.prepared.sizes[index]
            self.count += 1

"""A cell's calls measured as the loop's meter measures them (measures/meter.py), all calls at once:
tokens (recorded while the history is what the agent sent, else estimated from the latest recorded
anchor), the cache's reads and writes at the log's lifetime, the cost with and without caching."""

from dataclasses import dataclass

import numpy as np

from compaction.model.tokens import TokenModel
from compaction.sweep.kernel.facts import Facts
from compaction.sweep.kernel.tariffs import cached, plain
from compaction.sweep.kernel.walk import Walk


@dataclass(frozen=True, eq=False)
class Priced:
    chars: np.ndarray  # context characters sent (messages, system prompt and tools)
    tokens: np.ndarray
    exact: np.ndarray  # the tokens are the recorded ones
    cache_read: np.ndarray
    cache_write: np.ndarray
    cache_broken: np.ndarray
    cost: np.ndarray
    cost_no_cache: np.ndarray
    summaries: np.ndarray  # summaries written so far, this call's included
    compaction_cost: np.ndarray  # of `cost`, the summary calls' own (the meter's compaction_cost_usd)
    summary_in: np.ndarray  # the summary call's input and output tokens, 0 where none was made
    summary_out: np.ndarray


def content_tokens(model: TokenModel, chars: np.ndarray) -> np.ndarray:
    """TokenModel.content_tokens of each (non-negative) count of characters."""
    if not model.calibrated:
        return -(-chars // 4)
    return np.ceil(chars * model.tokens_per_char).astype(np.int64)


def tokens_of(model: TokenModel, chars: np.ndarray) -> np.ndarray:
    return model.overhead_tokens + content_tokens(model, chars)


def priced(walk: Walk, facts: Facts, model: TokenModel, overhead: int, input_cap: int) -> Priced:
    acted = np.asarray(walk.acted, dtype=np.int64)
    calls = len(acted)
    chars = np.asarray(walk.size, dtype=np.int64) + overhead
    changed = np.flatnonzero(acted)
    pristine = np.arange(calls) < (changed[0] if len(changed) else calls)
    exact = facts.known_exact & pristine
    # anchored_tokens: from the anchor while the context holds at least half its characters
    anchored = (facts.anchor_tokens >= 0) & (2 * chars >= facts.anchor_chars)
    change = chars - facts.anchor_chars
    moved = np.where(change >= 0, content_tokens(model, np.abs(change)), -content_tokens(model, np.abs(change)))
    estimate = np.where(anchored, np.maximum(facts.anchor_tokens + moved, 1), tokens_of(model, chars))
    tokens = np.where(exact, facts.known, estimate)
    previous = np.concatenate(([0], tokens[:-1]))
    whole = np.asarray(walk.whole, dtype=bool)
    shared = tokens_of(model, np.asarray(walk.shared, dtype=np.int64) + overhead)
    read = np.minimum(np.where(whole, previous, shared), tokens)
    read = np.where(facts.fresh, 0, read)
    broken = ~whole & ~facts.fresh & ~exact
    read = np.where(exact, facts.recorded_read, read)
    write = np.where(exact, facts.recorded_write, tokens - read)
    made = np.asarray([s is not None for s in walk.summary], dtype=bool)
    summary_in = np.zeros(calls, dtype=np.int64)
    summary_out = np.zeros(calls, dtype=np.int64)
    written = [summary for summary in walk.summary if summary is not None]
    if written:
        where = np.flatnonzero(made)
        chars_in = np.asarray([summary.chars_in for summary in written], dtype=np.int64)
        lengths = np.asarray([len(summary.text) for summary in written], dtype=np.int64)
        summary_in[where] = tokens_of(model, np.minimum(chars_in, input_cap) + overhead)
        summary_out[where] = content_tokens(model, lengths)
    cost = np.zeros(calls, dtype=np.float64)
    cost_no_cache = np.zeros(calls, dtype=np.float64)
    compaction_cost = np.zeros(calls, dtype=np.float64)
    for tariff, lifetime, members in facts.groups:
        own = cached(tariff, lifetime, read[members], write[members], facts.output[members])
        own = np.where(exact[members], facts.recorded_cost[members], own)
        compaction_cost[members] = plain(tariff, summary_in[members], summary_out[members])
        cost[members] = own + compaction_cost[members]
        cost_no_cache[members] = plain(tariff, tokens[members] + summary_in[members],
                                       facts.output[members] + summary_out[members])
    return Priced(chars, tokens, exact, read, write, broken, cost, cost_no_cache, np.cumsum(made), compaction_cost,
                  summary_in, summary_out)

"""One cell of a grid through the kernel: its walk (walk.py), its calls priced (priced.py) and what it no
longer sends (loss.py), from what the grid's cells share (`Shared`: the conversation's columns and facts,
and one variant per L3 and L2-minimum setting). `measures` gives the cell as a sweep keeps it (every
measure of the registry, as ReplayResult.totals computes them from the loop's records)."""

from dataclasses import dataclass, field

import numpy as np

from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.context import ReplayContext
from compaction.sweep.kernel.artifacts import artifact_places, retention
from compaction.sweep.kernel.columns import Columns, columns_of
from compaction.sweep.kernel.facts import Facts, facts_of
from compaction.sweep.kernel.layout import Arithmetic
from compaction.sweep.kernel.loss import (
    Gone,
    blind_counts,
    gone_of,
    kept_in_preview,
    made_texts,
    whole_output,
)
from compaction.sweep.kernel.persisted import Outside, Persisted, Placeholders, persisted_of
from compaction.sweep.kernel.priced import Priced, priced
from compaction.sweep.kernel.references import References, references_of
from compaction.sweep.kernel.summaries import Summaries
from compaction.sweep.kernel.versions import Versions
from compaction.sweep.kernel.walk import Walk, walk


@dataclass(eq=False)
class Variant:
    """What the cells with the same L3 settings and L2 minimum share."""

    persisted: Persisted
    placeholders: Placeholders
    arithmetic: Arithmetic
    summaries: Summaries


@dataclass(eq=False)
class Shared:
    context: ReplayContext
    columns: Columns
    facts: Facts
    variants: dict = field(default_factory=dict)
    _references: References | None = None

    @classmethod
    def of(cls, context: ReplayContext) -> "Shared":
        columns = columns_of(context.prepared, context.call_indices)
        if columns.literal_placeholder:
            raise Outside("a tool result holds the placeholder's own text")
        if lookups.compact_turns(context.prepared):
            raise Outside("the session calls the compact tool")
        return cls(context, columns, facts_of(context))

    @property
    def references(self) -> References:
        if self._references is None:
            self._references = references_of(self.context.prepared, self.columns, self.context.call_indices)
        return self._references

    def variant(self, settings: Settings) -> Variant:
        key = (settings.max_bytes, settings.persist_threshold, settings.preview_chars, settings.min_placeholder_chars)
        found = self.variants.get(key)
        if found is None:
            context, columns = self.context, self.columns
            persisted = self._persisted(settings)
            placeholders = persisted.placeholders(settings.min_placeholder_chars)
            arithmetic = Arithmetic(columns, persisted, placeholders,
                                    Versions(context.prepared, columns, persisted, placeholders))
            found = self.variants[key] = Variant(persisted, placeholders, arithmetic, Summaries(
                arithmetic, context.summarizer, context.store, context.prepared.originals, columns.joined.tolist(),
                context.prepared.sizes))
        return found

    def _persisted(self, settings: Settings) -> Persisted:
        key = ("persisted", settings.max_bytes, settings.persist_threshold, settings.preview_chars)
        found = self.variants.get(key)
        if found is None:
            found = self.variants[key] = persisted_of(self.context.prepared, self.columns, settings,
                                                      self.context.store)
        return found


@dataclass(eq=False)
class Cell:
    settings: Settings
    variant: Variant
    walk: Walk
    priced: Priced
    gone: Gone


def run_cell(shared: Shared, settings: Settings) -> Cell:
    """The cell at `settings` (those the strategy's layers read); Outside when the loop must run it."""
    variant = shared.variant(settings)
    done = walk(shared.columns, variant.persisted, variant.placeholders, variant.arithmetic, variant.summaries,
                settings)
    prepared = shared.context.prepared
    calls = priced(done, shared.facts, prepared.token_model, prepared.overhead, settings.summary_input_cap)
    if len(calls.tokens) and int(calls.tokens.max()) > shared.context.window or shared.context.over_own_window(calls.tokens):
        raise Outside("a call goes over the model window: reactive compaction")
    return Cell(settings, variant, done, calls, gone_of(done, variant.placeholders, len(done.count)))


def blind(shared: Shared, cell: Cell, terms: bool = False):
    kept = kept_in_preview(shared.references, cell.variant.persisted, shared.columns, shared.context.prepared.originals)
    return blind_counts(cell.walk, cell.gone, shared.references, kept, terms)


def artifact_share(shared: Shared, cell: Cell) -> float | None:
    context = shared.context
    if not context.call_indices:
        return None
    if not cell.walk.count:
        return None
    places = artifact_places(context.prepared, shared.columns, context.call_indices[-1])
    last = len(cell.walk.count) - 1
    return retention(places, cell.gone, shared.columns, cell.variant.persisted, last, made_texts(cell.walk, last))


def output_chars(shared: Shared) -> int:
    """Characters of tool output that came before some call (the loop's tool_output_chars)."""
    calls = shared.context.call_indices
    return lookups.output_chars_before(shared.context.prepared)[calls[-1]] if calls else 0


def measures(shared: Shared, cell: Cell) -> dict:
    """The cell's every measure, as ReplayResult.totals gives them (the registry's names)."""
    facts, calls = shared.facts, cell.priced
    tokens = calls.tokens
    stopped = np.flatnonzero(~facts.raw_runs)
    stop = int(stopped[0]) if len(stopped) else len(tokens)
    raw_sent = int(facts.raw_tokens[:stop].sum())
    read, written = int(calls.cache_read[1:].sum()), int(calls.cache_write[1:].sum())
    produced = output_chars(shared)
    return {
        "peak_tokens": int(tokens.max()) if len(tokens) else 0,
        "tokens_sent": int(tokens.sum()),
        "saved_share": 1 - int(tokens[:stop].sum()) / raw_sent if raw_sent else None,
        "cost_usd": sum(calls.cost.tolist()),
        "cost_usd_no_cache": sum(calls.cost_no_cache.tolist()),
        "cache_hit_rate": read / (read + written) if read + written else None,
        "blind_references": int(blind(shared, cell).sum()),
        "artifact_retention": artifact_share(shared, cell),
        "summaries": int(calls.summaries[-1]) if len(tokens) else 0,
        "tool_output_kept": whole_output(cell.walk, cell.gone, shared.columns, cell.variant.persisted) / produced
        if produced else None,
        "reactive": 0,
        "peak_chars": int(calls.chars.max()) if len(tokens) else 0,
    }

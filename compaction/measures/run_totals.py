"""What a run cost when its log gives only totals (importers/totals.py): the log's own figure when it
states one, else its tokens at their model's price, each model's apart when the log splits them.

A row with a price for long prompts (some models' over 200k tokens) is read at its ordinary price when
the run's prompts together pass that bound: the totals add every call's prompt and do not say how large
each one was, and a coding agent's calls are mostly under such a bound. The note says so, once. (Below
the bound every call was under it too, and the figure is exact.)
"""

from dataclasses import dataclass, replace

from compaction.importers.totals import has_tokens, input_of
from compaction.measures.cost import Prices
from compaction.measures.prices import price_for, recorded_call_cost, recorded_parts

ORDINARY_PROMPTS = "at the price of prompts of ordinary size (the totals do not say how large each call's was)"


@dataclass(frozen=True)
class TotalsCost:
    usd: float
    basis: str  # in words: "the log's own cost (info.model_stats)", "its tokens at gemini-2.5-flash's price"
    notes: tuple[str, ...] = ()  # a model the table lacks (priced at the fallback), a long-prompt row read short


def totals_cost(totals: dict | None, fallback: Prices) -> TotalsCost | None:
    """What the run of `totals` cost; None when they give neither a cost nor tokens. `fallback` prices a
    model the table lacks, or tokens of no named model, as recorded_call_cost does."""
    if not isinstance(totals, dict):
        return None
    source = totals.get("source") or "the log's totals"
    if isinstance(totals.get("cost_usd"), float):
        return TotalsCost(totals["cost_usd"], f"the log's own cost ({source})")
    if not has_tokens(totals):
        return None
    by_model = totals.get("by_model") or {totals.get("model"): totals}
    usd, priced = 0.0, []
    notes: dict[str, None] = {}  # ordered, once each
    for model, counts in by_model.items():
        row = price_for(model)
        if row is not None and row.long_prompt is not None:
            if row.long_prompt_over is not None and input_of(counts) > row.long_prompt_over:
                notes[f"{row.family} {ORDINARY_PROMPTS}"] = None
            row = replace(row, long_prompt=None, long_prompt_over=None)
        if row is not None:
            usd += row.cost(*recorded_parts(counts), counts["output_tokens"])
            priced.append(row.family)
            continue
        cost, priced_by = recorded_call_cost({**counts, "model": model}, fallback)
        usd += cost
        notes[priced_by] = None
        priced.append(model or "no named model")
    basis = f"its tokens in {source} at {priced[0]}'s price" if len(priced) == 1 else \
        f"its tokens in {source}, each model's at its price ({', '.join(priced)})"
    # no named model: the replay says so already (billing.NO_MODEL)
    return TotalsCost(usd, basis, tuple(note for note in notes if not note.startswith("the log names no model")))

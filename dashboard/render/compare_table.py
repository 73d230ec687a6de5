"""The Compare page's table: one row per strategy, one column per measure, the best trade-offs marked.

Columns are a list of MeasureColumn, so a new measure (a cache-aware cost, a loss measure) is one more
entry; a column with a direction ("lower"/"higher" is better) named in TRADE_OFF takes part in
choosing the best trade-offs (the strategies no other one beats on every such column).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from compaction.measures.tradeoff import pareto_front
from compaction.replay.loop import ACTIONS, ReplayResult
from dashboard.render.timeline import ACTION_TITLES, STRATEGY_TITLES
from dashboard.render.units import dollars, percent

BEST = "★"


@dataclass(frozen=True)
class MeasureColumn:
    title: str
    help: str
    value: Callable[[ReplayResult], Any]  # None when the measure does not apply
    show: Callable[[Any], str] = lambda value: f"{value:,}"
    better: str | None = None  # "lower" or "higher": a direction, for the trade-off


def what_it_did(result: ReplayResult) -> str:
    """'old outputs masked at 40 calls; 2 summaries' and the like."""
    acted = result.totals["acted"]
    parts = [f"{ACTION_TITLES[action]} at {count:,} call{'s' if count != 1 else ''}"
             for action in ACTIONS if (count := acted[action])]
    return "; ".join(parts) or "nothing: the session stayed under its thresholds"


COLUMNS: tuple[MeasureColumn, ...] = (
    MeasureColumn("model calls", "One per assistant message of the session.", lambda r: r.totals["calls"]),
    MeasureColumn("tokens sent", "All model calls together: what the input is billed on (estimated tokens).",
                  lambda r: r.totals["tokens_sent"], better="lower"),
    MeasureColumn("saved vs no compaction", "Tokens sent, compared with sending the whole history every time.",
                  lambda r: r.totals["saved_share"], percent),
    MeasureColumn("peak context (tokens)", "The largest single request.", lambda r: r.totals["peak_tokens"]),
    MeasureColumn("summaries", "LLM summaries written: each is one more model call.", lambda r: r.totals["summaries"]),
    MeasureColumn("tool output kept whole", "Of all the tool output the session produced, the share the model saw "
                  "whole at least once.", lambda r: r.totals["tool_output_kept"], percent, better="higher"),
    MeasureColumn("cost with caching", "All calls at the Replay page's prices: per call, the prefix shared with the "
                  "previous prompt is read from the cache, the rest written; summaries included.",
                  lambda r: r.totals["cost_usd"], dollars, better="lower"),
    MeasureColumn("cost without caching", "The same calls with every input token at the input price.",
                  lambda r: r.totals["cost_usd_no_cache"], dollars),
    MeasureColumn("read from the cache", "Of the input tokens after the first call: a strategy that rewrites old "
                  "messages makes later tokens cache writes again.", lambda r: r.totals["cache_hit_rate"], percent),
    MeasureColumn("blind references", "Names (files, functions, errors, URLs) a response used that appeared "
                  "earlier but were no longer in what its call sent.", lambda r: r.totals["blind_references"],
                  better="lower"),
    MeasureColumn("artifacts still sent", "Of the files, errors and constraints the person stated: the share still "
                  "present word for word at the last call.", lambda r: r.totals["artifact_retention"], percent),
    MeasureColumn("what it did", "The calls before which the strategy changed the history.", what_it_did, str),
)
# the best trade-offs: no other strategy is cheaper and loses less (and keeps as much tool output)
TRADE_OFF = ("cost with caching", "blind references", "tool output kept whole")


def best_trade_offs(rows: dict[str, dict[str, Any]], columns: Sequence[MeasureColumn] = COLUMNS,
                    trade_off: Sequence[str] = TRADE_OFF) -> set[str]:
    """The rows no other row beats: as good on every trade-off column and better on one (the Pareto
    front, compaction.measures.tradeoff). A missing value (None) counts as the worst."""
    axes = [c for c in columns if c.title in trade_off and c.better]
    names = list(rows)
    points = [[None if (value := rows[name][c.title]) is None else value if c.better == "lower" else -value
               for c in axes] for name in names]
    return {names[index] for index in pareto_front(points)}


def compare_rows(replays: dict[str, ReplayResult], columns: Sequence[MeasureColumn] = COLUMNS
                 ) -> dict[str, dict[str, Any]]:
    return {name: {c.title: c.value(result) for c in columns} for name, result in replays.items()}


def compare_frame(replays: dict[str, ReplayResult], columns: Sequence[MeasureColumn] = COLUMNS,
                  trade_off: Sequence[str] = TRADE_OFF) -> pd.DataFrame:
    """One row per strategy, values written for people; the first column marks the best trade-offs."""
    rows = compare_rows(replays, columns)
    best = best_trade_offs(rows, columns, trade_off)
    table = [{"best trade-off": BEST if name in best else "", "strategy": STRATEGY_TITLES.get(name, name),
              **{c.title: c.show(values[c.title]) for c in columns}} for name, values in rows.items()]
    return pd.DataFrame(table, columns=["best trade-off", "strategy", *(c.title for c in columns)])



def idle_sentence(replays: dict[str, ReplayResult]) -> str | None:
    """Names the strategies that sent, at every call, what no compaction sends (nothing on this session
    reached their thresholds): their lines lie under the no-compaction line, so the chart alone hides them."""
    idle = [STRATEGY_TITLES.get(name, name) for name, result in replays.items()
            if result.calls and all(call.tokens == call.raw_tokens for call in result.calls)]
    if not idle:
        return None
    if len(idle) == 1:
        return f"{idle[0]} sent what no compaction sends at every call: its line runs under the no-compaction line."
    names = ", ".join(idle[:-1]) + " and " + idle[-1]
    return f"{names} sent what no compaction sends at every call: their lines run under the no-compaction line."

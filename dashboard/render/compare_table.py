"""The Compare page's tables: one row per strategy, one column per measure, the best trade-offs marked,
with the truth beside the what-ifs: what the session cost according to its log, and no compaction over
the calls it can make.

Two tables, so that neither is wider than the page: tokens and cost (like for like with no compaction,
then the whole session), and what the model loses. Columns are MeasureColumn entries, so a new measure
is one more entry; a column with a direction ("lower"/"higher" is better) whose key is named in
TRADE_OFF takes part in choosing the best trade-offs (the strategies no other one beats on every such
column). A title may name the calls it covers: "{compared}" (the calls both a strategy and no compaction
could make) and "{whole}" (every call) are filled in for the session on show.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from compaction.measures import pareto_front
from compaction.replay import ReplayResult
from compaction.strategies import all_actions
from dashboard.render import comparison
from dashboard.render.timeline import ACTION_TITLES, STRATEGY_TITLES
from dashboard.render.units import dollars, percent

BEST = "★"
NO_COMPACTION = "No compaction"
THE_LOG = "What it cost (its log)"


def _count(value) -> str:
    return "–" if value is None else f"{value:,}"


@dataclass(frozen=True)
class MeasureColumn:
    key: str  # stable: TRADE_OFF and the tests name columns by it
    title: str  # may hold {compared} and {whole}
    help: str
    value: Callable[[ReplayResult], Any]  # None when the measure does not apply
    show: Callable[[Any], str] = _count
    better: str | None = None  # "lower" or "higher": a direction, for the trade-off

    def heading(self, reference: ReplayResult | None) -> str:
        if reference is None:
            return self.title.format(compared="like for like", whole="whole session")
        return self.title.format(compared=comparison.range_label(reference), whole=comparison.whole_label(reference))


def what_it_did(result: ReplayResult) -> str:
    """'old outputs masked at 40 calls; 2 summaries' and the like."""
    acted = result.totals["acted"]
    parts = [f"{ACTION_TITLES[action]} at {count:,} call{'s' if count != 1 else ''}"
             for action in all_actions() if (count := acted[action])]
    return "; ".join(parts) or "nothing: the session stayed under its thresholds"


COST_COLUMNS: tuple[MeasureColumn, ...] = (
    MeasureColumn("calls", "model calls", "One per assistant message of the session.", lambda r: r.totals["calls"]),
    MeasureColumn("tokens_compared", "tokens sent, {compared}", "The calls both the strategy and no compaction could "
                  "make: estimated tokens with the overhead.", lambda r: r.totals["tokens_sent_compared"]),
    MeasureColumn("saved", "saved vs no compaction, {compared}", "Tokens sent over the same calls, against sending "
                  "the whole history every time.", lambda r: r.totals["saved_share"], percent),
    MeasureColumn("cost_compared", "cost, {compared}", "With prompt caching, over the same calls.",
                  lambda r: r.totals["cost_usd_compared"], dollars),
    MeasureColumn("cost", "cost, {whole}", "With prompt caching, over every call: per call, the prefix shared with "
                  "the previous prompt is read from the cache, the rest written; summaries included.",
                  lambda r: r.totals["cost_usd"], dollars, better="lower"),
    MeasureColumn("peak", "peak context (tokens)", "The largest single request, with the overhead.",
                  lambda r: r.totals["peak_tokens"]),
    MeasureColumn("summaries", "summaries", "Summaries written: each is one more model call.",
                  lambda r: r.totals["summaries"]),
)
LOSS_COLUMNS: tuple[MeasureColumn, ...] = (
    MeasureColumn("tool_output_kept", "tool output kept whole", "Of all the tool output the session produced, the "
                  "share the model saw whole at least once.", lambda r: r.totals["tool_output_kept"], percent,
                  better="higher"),
    MeasureColumn("cost_no_cache", "cost without caching, {whole}", "The same calls with every input token at the "
                  "input price.", lambda r: r.totals["cost_usd_no_cache"], dollars),
    MeasureColumn("cache", "read from the cache", "Of the input tokens after the first call: a strategy that rewrites "
                  "old messages makes later tokens cache writes again.", lambda r: r.totals["cache_hit_rate"], percent),
    MeasureColumn("blind", "blind references", "Names (files, functions, errors, URLs) a response used that appeared "
                  "earlier but were no longer in what its call sent.", lambda r: r.totals["blind_references"],
                  better="lower"),
    MeasureColumn("artifacts", "artifacts, last call", "Artifacts still sent at the loop's last call: of the files, "
                  "errors and constraints the person stated, the share present word for word.",
                  lambda r: r.totals["artifact_retention"], percent),
)
COLUMNS = COST_COLUMNS + LOSS_COLUMNS
# the best trade-offs: no other strategy is cheaper and loses less (and keeps as much tool output)
TRADE_OFF = ("cost", "blind", "tool_output_kept")


def best_trade_offs(rows: dict[str, dict[str, Any]], columns: Sequence[MeasureColumn] = COLUMNS,
                    trade_off: Sequence[str] = TRADE_OFF) -> set[str]:
    """The rows no other row beats: as good on every trade-off column and better on one (the Pareto
    front, compaction.measures.tradeoff). A missing value (None) counts as the worst."""
    axes = [c for c in columns if c.key in trade_off and c.better]
    names = list(rows)
    points = [[None if (value := rows[name][c.key]) is None else value if c.better == "lower" else -value
               for c in axes] for name in names]
    return {names[index] for index in pareto_front(points)}


def compare_rows(replays: dict[str, ReplayResult], columns: Sequence[MeasureColumn] = COLUMNS
                 ) -> dict[str, dict[str, Any]]:
    """{strategy: {column key: value}}."""
    return {name: {c.key: c.value(result) for c in columns} for name, result in replays.items()}


def _reference_rows(reference: ReplayResult) -> dict[str, dict[str, str]]:
    """What the log says the session cost, and no compaction over the calls it can make, by column key."""
    totals = reference.totals
    compared = totals["compared_calls"]
    rows = {}
    def recorded(calls):
        return [c.measures.recorded for c in calls if c.measures is not None and c.measures.recorded]

    if totals["recorded_from_totals"]:  # the run's totals only: per call nothing, and the whole if compared whole
        run, whole = totals["recorded_totals"] or {}, compared == totals["calls"]
        rows[THE_LOG] = {"calls": _count(run.get("calls")),
                         "tokens_compared": _count(totals["recorded_context_tokens"] if whole else None),
                         "cost_compared": dollars(totals["recorded_cost_usd"] if whole else None),
                         "cost": dollars(totals["recorded_cost_usd"]), "summaries": _count(len(reference.boundaries))}
    elif totals["recorded_cost_usd"] is not None:
        early = recorded(reference.calls[:compared])
        rows[THE_LOG] = {"calls": _count(len(recorded(reference.calls))),
                         "tokens_compared": _count(sum(r.get("context_tokens") or 0 for r in early)),
                         "cost_compared": dollars(sum(r.get("cost_usd") or 0 for r in early)),
                         "cost": dollars(totals["recorded_cost_usd"]), "summaries": _count(len(reference.boundaries))}
    rows[NO_COMPACTION] = {"calls": _count(compared), "tokens_compared": _count(totals["raw_tokens_sent"]),
                           "cost_compared": dollars(totals["raw_cost_usd"]),
                           "cost": comparison.past_stop(reference) or dollars(totals["raw_cost_usd"]),
                           "peak": _count(max((c.raw_tokens for c in reference.calls[:compared]), default=None)),
                           "summaries": "0"}
    return rows


def compare_frame(replays: dict[str, ReplayResult], columns: Sequence[MeasureColumn] = COLUMNS,
                  trade_off: Sequence[str] = TRADE_OFF, references: bool = False,
                  labels: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per strategy, values written for people; the first column marks the best trade-offs.
    `references` puts the log's own cost and no compaction first (the values they have; '–' elsewhere).
    `labels`: a strategy's name in its row, when not its short title (a parameter set by you beside it)."""
    reference = next(iter(replays.values()), None)
    # over a session no compaction gets through whole, "{compared}" and "{whole}" are the same calls: one column
    by_heading: dict[str, MeasureColumn] = {}
    for column in columns:
        by_heading.setdefault(column.heading(reference), column)
    columns = list(by_heading.values())
    rows = compare_rows(replays, columns)
    # the best trade-offs weigh every trade-off column, also those of the other table
    judged = {c.key: c for c in (*COLUMNS, *columns)}.values()
    best = best_trade_offs(compare_rows(replays, list(judged)), list(judged), trade_off)
    titles = [c.heading(reference) for c in columns]
    table = []
    if references and reference is not None:
        for label, values in _reference_rows(reference).items():
            table.append({"best trade-off": "", "strategy": label,
                          **{title: values.get(c.key, "–") for c, title in zip(columns, titles, strict=True)}})
    named = {name: (labels or {}).get(name) or STRATEGY_TITLES.get(name, name) for name in rows}
    table += [{"best trade-off": BEST if name in best else "", "strategy": named[name],
               **{title: c.show(values[c.key]) for c, title in zip(columns, titles, strict=True)}}
              for name, values in rows.items()]
    return pd.DataFrame(table, columns=["best trade-off", "strategy", *titles])


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

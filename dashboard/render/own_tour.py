"""The tour of your own session: the numbers its words quote (own_tour_text.py) and the picture of each step,
from the loaded log, its compaction cards and one pass of the four layers at the sidebar's settings. The
picture of the layers' steps is the guided tour's (tour.py). No Streamlit here."""

import plotly.graph_objects as go

from compaction.compactions import CompactionCard
from compaction.layers import PipelineResult
from compaction.measures import KIND_TITLES, sent_composition
from compaction.model import History, recorded_context
from dashboard.render.compaction_words import money, trigger_words
from dashboard.render.narrative import plural
from dashboard.render.tour import blocks_figure, row_label, saving_figure, tour_numbers
from dashboard.render.units import compact_number

FILLS_SHOWN = 3  # the largest kinds the "what fills it" step names


def _peak(history: History) -> tuple[int, int] | None:
    """(message index, recorded tokens) of the fullest call the log recorded, or None without usage."""
    found = [(tokens, index) for index, usage in enumerate(history.recorded.usage)
             if (tokens := recorded_context(usage))]
    return (max(found)[1], max(found)[0]) if found else None


def _fills(history: History, index: int) -> str:
    composition, _ = sent_composition(history, index)
    total = composition.tokens or 1
    largest = sorted(((tokens, kind) for kind, tokens in composition.kinds.items() if tokens), reverse=True)
    return ", ".join(f"{KIND_TITLES[kind]} {100 * tokens / total:.0f} %" for tokens, kind in largest[:FILLS_SHOWN])


def _own(cards: list[CompactionCard]) -> dict[str, str]:
    if not cards:
        return {"own_lead": "Your agent never compacted this session: it never came near its limit.",
                "own_what": "Its log records no compaction, so every call sent the whole conversation so far.",
                "own_recap": "Your agent itself never had to compact this session."}
    first = cards[0]
    manual = sum(card.trigger == "manual" for card in cards)
    again = sum(len(card.reread) for card in cards)
    again_tokens = sum(card.reread_tokens for card in cards)
    again_cost = sum(card.reread_cost_usd for card in cards)
    cost = sum(card.cost.total_usd or 0 for card in cards)
    named = ", ".join(item.name for item in first.reread[:3] if item.kind == "file")
    where = f"before call {first.call:,}" if first.call is not None else "after its last call"
    after = (f" The next call carried **{first.tokens_after:,} tokens**." if first.tokens_after is not None else "")
    return {
        "own_lead": f"Your agent compacted its own conversation {plural(len(cards), 'time')}"
                    + (f", {manual:,} of them because the person asked (/compact)." if manual else "."),
        "own_what": f"The first time, {where} ({trigger_words(first)}), the context held "
                    f"**{first.tokens_before or 0:,} tokens**; the agent replaced it with a summary of "
                    f"{first.carried_on.summary_chars:,} characters.{after} In all, the compactions cost "
                    f"**{money(cost)}**, and afterwards the agent had to fetch {plural(again, 'thing')} again that "
                    f"a compaction had lost ({again_tokens:,} tokens, {money(again_cost)})"
                    + (f", such as {named}." if named else "."),
        "own_recap": f"Your agent compacted {plural(len(cards), 'time')} for {money(cost)}, and read "
                     f"{plural(again, 'thing')} again because of it."}


def own_tour_numbers(label: str, history: History, window: int, result: PipelineResult,
                     cards: list[CompactionCard]) -> dict[str, str]:
    """The figures the own-session tour's texts quote, written for people."""
    numbers = tour_numbers(result)
    calls = sum(1 for message in history.originals if message.get("role") == "assistant")
    peak = _peak(history)
    summary = result.summary
    numbers |= {
        "label": label, "messages": f"{len(history.originals):,}", "chars": compact_number(history.size),
        "tokens": compact_number(history.tokens), "calls": f"{calls:,}", "window": f"{window:,}",
        "usage_sentence": f"Its log recorded how full each call was: the fullest carried {peak[1]:,} tokens."
        if peak else "Its log does not record how full each call was, so tokens here are estimated.",
        "peak_call": f"{sum(1 for m in history.originals[:peak[0] + 1] if m.get('role') == 'assistant'):,}"
        if peak else "–",
        "peak_tokens": f"{peak[1]:,}" if peak else "–",
        "fills": _fills(history, peak[0]) if peak else "the log records no call's size",
        "summary_words": "was not needed" if summary is None or not summary.triggered
        else f"wrote a summary of {numbers['l4_chars']} characters",
        "recap_lead": f"{label}: {plural(calls, 'model call')}, {numbers['saved_share']} saved by one pass.",
    }
    return numbers | _own(cards)


def compactions_figure(cards: list[CompactionCard]) -> go.Figure:
    """Each of the agent's compactions: the tokens before and the tokens the next call carried."""
    names = [f"compaction {card.number} (call {card.call})" for card in cards]
    figure = go.Figure([go.Bar(name="tokens before", x=names, y=[card.tokens_before or 0 for card in cards],
                               marker={"color": "#f58518"}),
                        go.Bar(name="the next call", x=names, y=[card.tokens_after or 0 for card in cards],
                               marker={"color": "#b279a2"})])
    figure.update_layout(barmode="group", height=360, margin={"t": 30, "b": 10, "l": 10, "r": 10},
                         yaxis={"title": "tokens", "tickformat": ","}, legend={"orientation": "h", "y": -0.2})
    return figure


def own_step_figure(key: str, history: History, result: PipelineResult, cards: list[CompactionCard]) -> go.Figure:
    """The picture of the own-session tour's step `key`."""
    stages = {stage.layer: stage for stage in result.stages}
    if key == "own" and cards:
        return compactions_figure(cards)
    if key == "layers":
        before, after = stages["input"].history, result.final.history
        return blocks_figure([(row_label("Before", before), before), (row_label("After", after), after)],
                             limit=result.settings.context_limit)
    if key == "recap":
        return saving_figure(result)
    return blocks_figure([(row_label("Your session", history), history)])

"""The Replay page's sections: the headline figures (like for like with no compaction, then the whole
session, then what the log says and what the model loses), the fidelity table for a log that compacted
itself, and the history sent at one call. The page (app_pages/replay.py) calls them in order.

Metric values are short (large counts in compact form, the exact figure on hover) and labels are
short, so neither is ever cut: the range a figure covers is the heading above its row."""

import streamlit as st

from compaction.agents import agent_of
from compaction.replay import ReplayResult
from compaction.strategies import REGISTRY
from compaction.words import verb
from dashboard.render import comparison, tables, timeline
from dashboard.render.fidelity_table import fidelity_frame, fidelity_of, fidelity_sentence, whose_compactions
from dashboard.render.narrative import plural
from dashboard.render.price_words import (
    priced_sentence,
    session_cost_help,
    session_cost_sentence,
    session_cost_text,
)
from dashboard.render.text import literal
from dashboard.render.units import UNIT_LABELS, compact_number, dollars, percent
from dashboard.ui import composition_view, state, views
from dashboard.ui.probes_view import probe_section

CALL_KEY = "replay_call"
FIDELITY_KEY = "replay_fidelity_strategy"


def _tokens(value: int | None) -> str:
    return "–" if value is None else compact_number(value)


def headline(result: ReplayResult) -> None:
    totals = result.totals
    st.markdown(f"**{comparison.stop_headline(result)}**")
    compared = comparison.range_label(result)
    st.markdown(f"###### Compared: {compared}, the calls both could make")
    sent_col, raw_col, saved_col, cost_col = st.columns(4)
    sent_col.metric("Tokens sent (compared)", _tokens(totals["tokens_sent_compared"]),
                    help=f"{totals['tokens_sent_compared']:,} tokens with the overhead, with compaction, over {compared}.")
    raw_col.metric("No compaction (compared)", _tokens(totals["raw_tokens_sent"]),
                   help=f"{totals['raw_tokens_sent']:,} tokens: the same calls with nothing ever compacted.")
    saved_col.metric("Saved vs no compaction", percent(totals["saved_share"]),
                     help=f"{comparison.saved_tokens(result):,} tokens fewer than without compaction, over {compared}.")
    cost_col.metric("Cost (compared)", dollars(totals["cost_usd_compared"]),
                    f"{dollars(totals['raw_cost_usd'])} without compaction", delta_color="off", delta_arrow="off",
                    help="With prompt caching, over the same calls: per call the prefix shared with the previous "
                         "prompt is read from the cache, the rest written; each summary is a call too.")
    st.caption(comparison.cost_difference_sentence(result))

    whole = comparison.whole_label(result)
    st.markdown(f"###### All calls: the whole session, {whole}")
    all_col, none_col, all_cost_col, paid_col = st.columns(4)
    all_col.metric("Tokens sent (all calls)", _tokens(totals["tokens_sent"]),
                   help=f"{totals['tokens_sent']:,} tokens with the overhead, with compaction, over {whole}.")
    stop = result.raw_stop_call
    none_col.metric("No compaction (all calls)", "n/a" if stop is not None else _tokens(totals["raw_tokens_sent"]),
                    f"stops at call {stop + 1:,}" if stop is not None else None, delta_color="off", delta_arrow="off",
                    help="Without compaction the agent cannot make the calls past its stop (its prompt is too long "
                         "for the model window), so there is no figure for the whole session: "
                         f"{comparison.past_stop(result) or 'it makes them all'}.")
    all_cost_col.metric("Cost (all calls)", dollars(totals["cost_usd"]), f"{dollars(totals['cost_usd_no_cache'])} without caching",
                        delta_color="off", delta_arrow="off", help=f"With compaction, over {whole}.")
    paid_col.metric("What it cost (log)", session_cost_text(result), help=session_cost_help(result))
    st.caption(session_cost_sentence(result) + " " + priced_sentence(result) + " " + state.calls_paid_sentence())

    st.markdown("###### What the log says, and what the model loses")
    calls_col, recorded_col, hit_col, blind_col, kept_col = st.columns(5)
    calls_col.metric("Model calls", f"{totals['calls']:,}", plural(totals["summaries"], "summary"), delta_color="off",
                     delta_arrow="off", help=f"One per assistant message. Summaries: L4 and reactive "
                                             f"({totals['reactive']:,} reactive).")
    recorded_col.metric("Recorded in the log", _tokens(totals["recorded_context_tokens"]),
                        "the run's totals" if totals["recorded_from_totals"] else None, delta_color="off",
                        delta_arrow="off",
                        help="The input tokens of the whole run, as the log's totals give them: no call of it "
                             "records its own." if totals["recorded_from_totals"] else
                        "The tokens every call of the log recorded (input + cache writes + cache reads), "
                        "with the agent's own compactions: what the agent really sent.")
    broke = f"{plural(totals['cache_breaks'], 'call')} broke it"
    hit_col.metric("Read from the cache", percent(totals["cache_hit_rate"]), broke,
                   delta_color="off", delta_arrow="off",
                   help="Of the input tokens after the first call. A layer that rewrites something old (a "
                        "placeholder, a snip, a summary) makes every later token a cache write again.")
    blind_col.metric("Blind references", f"{totals['blind_references']:,}",
                     help="Names (files, functions, errors, URLs) a response used that appeared earlier but were "
                          "no longer in what its call sent.")
    kept_col.metric("Artifacts, last call", percent(totals["artifact_retention"]),
                    help="Artifacts still sent at the loop's last call: of the files read or written, errors seen "
                         "and constraints the person stated, the share present word for word in what that call "
                         "sent. (The Pipeline page's figure is one pass over the whole loaded conversation.)")
    for note in (timeline.tokens_sentence(result), timeline.cache_check_sentence(result)):
        if note:
            st.caption(note)
    if totals["over_window_calls"]:
        st.warning(f"{plural(totals['over_window_calls'], 'call')} {verb(totals['over_window_calls'], 'was', 'were')} still over the model window after reactive "
                   "compaction: the real API would have refused them.")


def fidelity_section(result: ReplayResult) -> None:
    """For a log that compacted itself: its compaction points beside the chosen strategy's."""
    if not result.boundaries:
        return
    st.subheader("How far to trust the what-if")
    agent = agent_of(state.loaded().conversation.format)
    choices = ["pipeline", *([agent.own_preset] if agent is not None and agent.own_preset else [])]
    choice = st.selectbox("Beside the log's own compactions", choices, key=FIDELITY_KEY,
                          format_func=lambda name: ("Tutorial pipeline (the sidebar's settings)" if name == "pipeline"
                                                    else f"{REGISTRY[name].label} preset (its defaults)"),
                          help="Where the strategy compacted against where the agent itself did, call by call.")
    compared = result if choice == "pipeline" else state.strategy_replay(choice, {})
    found = fidelity_of(compared)
    if found is None:
        st.caption("The log records no usage: there is nothing to check the estimate against.")
        return
    st.table(fidelity_frame(found), hide_index=True)
    st.caption(" ".join(part for part in (whose_compactions(compared), fidelity_sentence(found, compared)) if part))


def call_section(result: ReplayResult) -> None:
    """The messages sent at one call (a click on the chart, or the number typed)."""
    # the newest call at first; kept within range when another conversation has fewer calls
    st.session_state[CALL_KEY] = min(max(1, st.session_state.get(CALL_KEY, len(result.calls))), len(result.calls))
    call_number = st.number_input(f"Model call to inspect (1–{len(result.calls):,})", 1, len(result.calls),
                                  key=CALL_KEY,
                                  help="Or click a point of the chart. Keyboard: type a number or use the arrows.")
    record = result.calls[call_number - 1]
    history = result.history(record.call)
    unit = state.unit()
    acted = ", ".join(timeline.ACTION_TITLES[action] for action in record.acted) or "nothing: the history fitted"
    measures = record.measures
    known = "recorded in the log" if record.exact else "estimated"
    st.markdown(f"**Call {call_number:,}** answers message {record.index:,} of the loaded conversation. Sent: "
                f"**{record.tokens:,} tokens** with the overhead ({known}) in {record.messages:,} messages (without "
                f"compaction {record.raw_tokens:,}"
                + (f"; the log recorded {measures.recorded['context_tokens']:,}" if measures and measures.recorded
                   else "")
                + f"). Before it: {acted}. Summaries so far: {record.summaries:,}. Cache: "
                f"{measures.cache_read:,} tokens read, {measures.cache_write:,} written; cost ${measures.cost_usd:,.4f}.")
    if record.blind_references:
        st.warning("This response named what the model no longer saw: "
                   + ", ".join(f"`{literal(term)}`" for term in record.blind_references), icon=":material/visibility_off:")
    sent = tables.message_frame(history, unit)
    st.dataframe(sent, hide_index=True, width="stretch", height=320, column_config=views.whole_columns(
        sent, {"size": st.column_config.NumberColumn(f"size ({UNIT_LABELS[unit]})", format="localized")},
        {"index": "count", "size": "count"}))
    st.caption("The messages sent at this call, as the loop had compacted them; 'index' is the position in what "
               "was sent.")
    composition_view.call_bars(result, record.call)
    probe_section(state.history(), history, record)

"""What the Pipeline and What changed pages share about their one pass: which history of a self-compacted
log it runs on (the person switches), and the Pipeline page's headline, where every figure says it is one
pass over the loaded conversation and the saving is set beside its cost over the whole session."""

import streamlit as st

from compaction.agents import agent_of
from compaction.layers import PipelineResult
from dashboard.render import agent_regime, comparison, layer_amounts, log_view
from dashboard.render.narrative import agent_title, fate_counts, l4_headline
from dashboard.render.trade_words import summaries_sentence, trade_sentence
from dashboard.render.units import SHORT, SIZE_WORDS, compact_number, convert, describe, percent
from dashboard.ui import state


def log_view_switch() -> log_view.LogView:
    """For a log that compacted itself, the choice of history and what it means; the view either way."""
    view = state.pipeline_view()
    if view.view is None:
        return view
    choices = list(log_view.VIEWS)
    st.radio("This log compacted itself. Run the layers on", choices, index=choices.index(state.log_view_choice()),
             format_func=log_view.VIEW_TITLES.get, key=state.LOG_VIEW_KEY,
             help="Its own summaries exist only because it compacted: passing them through the layers would "
                  "summarise a summary. Either leave them out of the whole history, or start where the agent "
                  "itself started again, after its last compaction.")
    view = state.pipeline_view()
    st.info(log_view.view_sentence(view, state.unit()), icon=":material/history:")
    return view


def headline(result: PipelineResult, unit: str) -> None:
    """The trade first (what one pass saved, beside what it kept and lost), then its figures, then for a
    real log the agent's own regime as the first thing to try."""
    model = result.stages[0].history.token_model
    first, final = result.stages[0], result.final
    saved_share = result.saved / first.size if first.size else 0.0
    lost = state.pipeline_loss(result)
    replay = state.replay_result()
    agent = agent_title(state.loaded().conversation)
    summaries = summaries_sentence(replay, agent) if replay.calls else None
    st.markdown(f"**{trade_sentence(result, lost)}**" + (f" {summaries}" if summaries else ""))
    l4_value, l4_help = l4_headline(result)
    summarizer = result.summary.summarizer if result.summary is not None and result.summary.triggered else None
    size_col, final_col, saved_col, l4_col = st.columns(4)
    size_col.metric("Loaded", compact_number(convert(first.size, unit, model)),
                    help=f"{first.count:,} messages, {convert(first.size, unit, model):,} {SIZE_WORDS[unit]}.")
    final_col.metric("Sent, one pass", compact_number(convert(final.size, unit, model)),
                     help=f"{final.count:,} messages, {convert(final.size, unit, model):,} {SIZE_WORDS[unit]}: what "
                          "one pass of the four layers over the loaded conversation leaves.")
    saved_col.metric("Saved, one pass", percent(saved_share, 1),
                     help=f"{describe(result.saved, unit, model)} removed by one pass over the loaded conversation. "
                          "Over a whole session, call by call, the Replay page's figure compares tokens sent with "
                          "no compaction.")
    l4_col.metric("L4 summary", l4_value.split(" (")[0], f"by the {summarizer} summariser" if summarizer else None,
                  delta_color="off", delta_arrow="off", help=l4_help)
    kept_col, dropped_col, placeholder_col, artifacts_col = st.columns(4)
    kept_col.metric("Kept whole, one pass", f"{fate_counts(result).get('kept', 0):,} of {first.count:,}",
                    help="Messages sent as they were, every word of them: the rest were dropped (L1), folded into "
                         "the summary (L4), shortened to a preview (L3) or had a tool result replaced (L2).")
    dropped_col.metric("Dropped, no summary", f"{lost.dropped_messages:,}",
                       help=f"{lost.dropped_messages:,} messages, {compact_number(layer_amounts.removed(result, 'L1', unit))} "
                            f"{SHORT[unit]} removed from what is sent (as on the waterfall): what L1 "
                            "snipped from the middle. L4 summarises only what is left after L1, so these messages "
                            "reach no summary.")
    placeholder_col.metric("Results replaced", f"{len(result.placeholders):,}",
                           help="Old tool results L2 swapped for a one-line placeholder (their text is gone from "
                                "what is sent; the model is told it can run the tool again).")
    artifacts_col.metric("Artifacts, one pass", percent(lost.artifact_retention),
                         help="Artifacts still sent after one pass: of the files read or written, errors seen and "
                              "constraints the person stated in the loaded conversation, the share present word for "
                              "word in what the pass leaves. (The Replay page's figure is the loop's last call.)")
    st.caption(f"Sizes in {SIZE_WORDS[unit]}. L4: {l4_help}.")
    if replay.calls:
        st.markdown(comparison.saving_and_cost_sentence(saved_share, replay))
    agent_suggestion(agent)


def agent_suggestion(agent: str) -> None:
    """For a log of a known agent: its own regime, one click away (Tune has its own button)."""
    loaded = state.loaded()
    if agent_of(loaded.conversation.format) is None:
        return
    found = state.agent_regime()
    words = agent_regime.regime_sentence(found, agent)
    current = state.settings()
    if all(getattr(current, field) == value for field, value in found.values.items()):
        st.success(f"**The sidebar holds {agent}'s own regime.** {words} The tutorial's defaults are one click away: "
                   "Reset in the sidebar.", icon=":material/history:")
        return
    with st.container(border=True):
        st.markdown(f"**Start from {agent}'s own regime.** The tutorial's defaults are sized for its small demo. "
                    f"{words}")
        st.button(f"Use {agent}'s regime in the sidebar", on_click=state.apply_settings, args=(found.values,),
                  key="pipeline_agent_regime", icon=":material/history:", type="primary")

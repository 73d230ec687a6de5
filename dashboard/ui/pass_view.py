"""What the Pipeline and What changed pages share about their one pass: which history of a self-compacted
log it runs on (the person switches), and the Pipeline page's headline, where every figure says it is one
pass over the loaded conversation and the saving is set beside its cost over the whole session."""

import streamlit as st

from compaction.layers import PipelineResult
from dashboard.render import comparison, layer_amounts, log_view
from dashboard.render.narrative import l4_headline
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
    model = result.stages[0].history.token_model
    first, final = result.stages[0], result.final
    saved_share = result.saved / first.size if first.size else 0.0
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
    lost = state.pipeline_loss(result)
    dropped_col, placeholder_col, kept_col, _ = st.columns(4)
    dropped_col.metric("Dropped, no summary", f"{lost.dropped_messages:,}",
                       help=f"{lost.dropped_messages:,} messages, {compact_number(layer_amounts.removed(result, 'L1', unit))} "
                            f"{SHORT[unit]} removed from what is sent (as on the waterfall): what L1 "
                            "snipped from the middle. L4 summarises only what is left after L1, so these messages "
                            "reach no summary.")
    placeholder_col.metric("Results replaced", f"{len(result.placeholders):,}",
                           help="Old tool results L2 swapped for a one-line placeholder (their text is gone from "
                                "what is sent; the model is told it can run the tool again).")
    kept_col.metric("Artifacts, one pass", percent(lost.artifact_retention),
                    help="Artifacts still sent after one pass: of the files read or written, errors seen and "
                         "constraints the person stated in the loaded conversation, the share present word for word "
                         "in what the pass leaves. (The Replay page's figure is the loop's last call.)")
    st.caption(f"Sizes in {SIZE_WORDS[unit]}. L4: {l4_help}.")
    replay = state.replay_result()
    if replay.calls:
        st.markdown(comparison.saving_and_cost_sentence(saved_share, replay))

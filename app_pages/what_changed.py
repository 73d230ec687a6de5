"""What-changed page: the messages L1 snipped, the tool results L2 replaced, the L4 summary, and a
download of the compacted conversation."""

import streamlit as st

from compaction.storage import safe_name
from dashboard.render import layer_amounts, log_view, tables
from dashboard.render.text import literal
from dashboard.render.units import SHORT, UNIT_LABELS, compact_number, convert, describe
from dashboard.ui import pass_view, state, views
from dashboard.ui.loading import compacted_json

loaded = state.loaded()
st.title("What changed")
st.caption(f"Exactly what the layers took out of **{literal(loaded.label)}** in one pass and what they put in its "
           "place. Message numbers count the loaded conversation from 0, as on the Conversation page.")
view = pass_view.log_view_switch()
result = state.result()
unit = state.unit()
original = result.stages[0].history
positions = {origin: at for at, origin in enumerate(original.origins) if origin is not None}
model = original.token_model
size_label = f"size ({UNIT_LABELS[unit]})"
max_size = max(1, convert(max(original.sizes, default=1), unit, model))


COUNTS = {"from": "count", "to": "count", "messages": "count", "message": "count", "index": "count"}


def size_bar(label: str, maximum: int):
    return st.column_config.ProgressColumn(label, format="compact", min_value=0, max_value=max(maximum, 1))


st.header("L1: snipped from the middle")
if not result.snipped:
    st.info(f"Nothing was snipped: after L3 the history has {result.stage('L3').count:,} messages, not more "
            f"than max_messages ({result.settings.max_messages:,}).")
else:
    snipped = tables.snipped_frame(result, unit)
    st.dataframe(snipped, hide_index=True, width="stretch", column_config=views.whole_columns(snipped, {
        "from": st.column_config.NumberColumn("from message"),
        "to": st.column_config.NumberColumn("to message"),
        "removed": size_bar(f"removed ({SHORT[unit]})", int(snipped["removed"].max())),
    }, COUNTS))
    st.caption(f"Removed: what L1 took from what is sent, {compact_number(layer_amounts.removed(result, 'L1', unit))} "
               f"{SHORT[unit]}, as on the Pipeline page's waterfall (the snipped messages less the marker left in "
               "their place).")
    for number, snipped_range in enumerate(result.snipped):
        title = (f"Messages {snipped_range.start}–{snipped_range.end}: {snipped_range.count:,} messages, "
                 f"{compact_number(snipped.loc[number, 'removed'])} {SHORT[unit]} removed")
        with st.expander(title):
            frame = tables.message_frame(original, unit, [positions[i] for i in snipped_range.indices], by_origin=True)
            event = st.dataframe(frame, hide_index=True, width="stretch", height=280, on_select="rerun",
                                 selection_mode="single-row", key=f"snipped_table_{number}",
                                 column_config=views.whole_columns(frame, {"size": size_bar(size_label, max_size)},
                                                                   COUNTS))
            row = views.selected_row(event)
            index = int(frame.iloc[row if row is not None else 0]["index"])
            st.caption("Select a row to read another of the snipped messages.")
            views.message_viewer(original, positions[index], unit, key=f"snipped_message_{number}", number=index)

st.header("L2: old tool results replaced by a placeholder")
if not result.placeholders:
    st.info(f"No placeholders: every old tool result is among the newest {result.settings.keep_recent} "
            f"(KEEP_RECENT) or is {result.settings.min_placeholder_chars} characters or shorter.")
else:
    placeholders = tables.placeholder_frame(result, unit)
    messages = len({event.index for event in result.placeholders})
    removed = layer_amounts.removed(result, "L2", unit)
    st.caption(f"{len(result.placeholders):,} tool result{'' if len(result.placeholders) == 1 else 's'} in "
               f"{messages:,} message{'' if messages == 1 else 's'}, now read as the placeholder text: L2 removed "
               f"{compact_number(removed)} {SHORT[unit]} from what is sent, as on the Pipeline page's waterfall (their "
               "output less the placeholders). The model is told it can re-run the tool if it needs one again.")
    st.dataframe(placeholders, hide_index=True, width="stretch", column_config=views.whole_columns(placeholders, {
        "message": st.column_config.NumberColumn("message"),
        "original size": size_bar(f"original {size_label}", int(placeholders["original size"].max())),
        "placeholder": st.column_config.TextColumn("placeholder text"),
    }, COUNTS))

st.header("L4: summary")
summary = result.summary
if summary is None or not summary.triggered:
    st.info(f"No summary: {summary.reason if summary else 'L4 was not reached'}. "
            "Lower CONTEXT_LIMIT in the sidebar to see L4 at work.")
else:
    st.markdown(f"**Why:** {summary.reason}.  \n**Summariser:** {summary.summarizer}.  \n"
                f"**Transcript saved first:** `{summary.transcript_path}`")
    if summary.error:
        st.error(f"The summary failed, so the history stays as after L2.\n\n{summary.error}")
    else:
        st.code(summary.text, language=None, wrap_lines=True)
    if state.summarizer_choice() == state.CLAUDE and state.claude_result() is None:
        st.caption("This is the offline summary: press **Summarise with Claude** in the sidebar to ask Claude.")

if view.view == log_view.AFTER_LAST and view.ahead_chars:
    st.caption("The agent's own summary, the first message the layers ran on, is sent as it is: no layer summarises "
               "a summary again.")

st.header("Download")
stem = safe_name(loaded.label.rsplit(".", 1)[0])
st.download_button(
    "Download the compacted conversation (JSON)",
    data=lambda: compacted_json(result, loaded.conversation),
    file_name=f"{stem}_compacted.json", mime="application/json", on_click="ignore",
    icon=":material/download:", key="download_compacted")
st.caption(f"{result.final.count:,} message{'' if result.final.count == 1 else 's'}, {describe(result.final.size, unit, model)}: what would be sent to "
           "the model with these settings, in Anthropic Messages form (loadable here again).")

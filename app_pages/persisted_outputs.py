"""Persisted-outputs page: every tool output L3 saved to disk in the user's workspace."""

import streamlit as st

from compaction.layers import persisted_marker
from compaction.model import content_text
from compaction.replay import call_number
from dashboard.render import tables
from dashboard.render.narrative import plural
from dashboard.render.units import UNIT_LABELS, describe
from dashboard.ui import state, views

result = state.result()  # runs L3 for the current settings, so its files are on disk
unit = state.unit()
store = state.store()
history = state.history()
outputs = store.list_outputs()


def original_output(tool_use_id: str) -> str | None:
    """The tool output as it is in the loaded conversation, or None when it is not in it."""
    found = history.result_blocks.find(tool_use_id)
    if found is None:
        return None
    origin, position = found
    return content_text(history.originals[origin]["content"][position].get("content", ""))


st.title("Persisted outputs")
st.caption("When the newest tool results are too big, L3 writes the largest to a file and leaves a preview "
           f"in the conversation. Your workspace's files are in `{store.results_dir}`.")

along: dict = {}  # tool_use_id -> (call, record): what L3 persisted along the replay, where one pass saved nothing
if not outputs:
    replayed = state.replay_result(histories=False)
    along = tables.persisted_along(replayed)
    outputs = [found for found in (state.replay_store().find(key) for key in along) if found is not None]
    if outputs:
        calls = sorted({call_number(call) for call, _ in along.values()})
        st.info(f"One pass of L3 sees only the newest message, and saved nothing here. Along the replay of "
                f"{len(replayed.calls):,} calls, each message was the newest once: L3 persisted "
                f"{plural(len(outputs), 'output')}, before call{'' if len(calls) == 1 else 's'} "
                f"{', '.join(f'{call:,}' for call in calls[:12])}{' …' if len(calls) > 12 else ''}; the replay's files are in "
                f"`{state.replay_store().results_dir}`.",
                icon=":material/timeline:")
if not outputs:
    st.info(f"L3 has saved nothing in your workspace, in one pass nor along the replay of "
            f"{len(state.replay_result(histories=False).calls):,} calls. It acts only when the newest message's "
            f"tool results total more than the L3 budget ({result.settings.max_bytes:,} characters), and then "
            f"saves the outputs longer than PERSIST_THRESHOLD ({result.settings.persist_threshold:,}). The "
            "tutorial's demo sample has such an output.")
    st.stop()

current_ids = {event.tool_use_id for event in result.persisted}
in_conversation = {stored.tool_use_id for stored in outputs if original_output(stored.tool_use_id) is not None}
frame = tables.persisted_frame(outputs, in_conversation, unit)
st.dataframe(frame, hide_index=True, width="stretch", column_config=views.whole_columns(frame, {
    "size": st.column_config.NumberColumn(f"size ({UNIT_LABELS[unit]})", format="localized"),
    "bytes on disk": st.column_config.NumberColumn(format="localized"),
}, {"size": "count", "bytes on disk": "count"}))

labels = {f"{number}. {stored.tool} · {stored.tool_use_id} · {describe(stored.chars, unit, history.token_model)}": stored
          for number, stored in enumerate(outputs, 1)}  # numbered: one id can be stored with two contents
default = next((i for i, stored in enumerate(outputs) if stored.tool_use_id in current_ids), 0)
stored = labels[st.selectbox("Output to open", list(labels), index=default, key="persisted_choice")]
original = original_output(stored.tool_use_id)

full_col, preview_col = st.columns(2)
with full_col:
    st.subheader("Full output, on disk")
    views.paged_text(stored.bytes, lambda start, length: store.read_slice(stored, start, length),
                     key="persisted_page", unit_name="bytes")
    st.download_button("Download this output", data=lambda: stored.path.read_bytes(),
                       file_name=stored.path.name, mime="text/plain", on_click="ignore",
                       icon=":material/download:", key="download_persisted")
with preview_col:
    st.subheader("What stayed in the conversation")
    event = next((event for event in result.persisted if event.tool_use_id == stored.tool_use_id), None) \
        or along.get(stored.tool_use_id, (None, None))[1]
    if event is not None:
        preview = event.preview
    elif original is not None:
        preview = persisted_marker(stored.path, original, result.settings.preview_chars)
        st.caption("Not persisted at the current settings; this is the preview L3 would leave.")
    else:
        preview = None
    if preview is None:
        st.info("This output came from a conversation loaded earlier in your workspace.")
    else:
        st.code(preview, language=None, wrap_lines=True, height=420)
        st.caption(f"{len(preview):,} characters instead of {stored.chars:,}.")

st.subheader("Is the file identical to the original?")
if original is None:
    st.info("The original is not in the loaded conversation, so it cannot be compared. Load the conversation "
            "it came from to check it.")
elif store.matches(stored, original):
    st.success(f"Yes: the file's {stored.bytes:,} bytes are exactly the original output's UTF-8 bytes "
               f"(sha256 {stored.sha256[:16]}…).", icon=":material/verified:")
else:
    st.error("No: the file on disk differs from the original output in the loaded conversation.")

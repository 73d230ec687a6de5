"""Conversation page (the default): choose what to compact, and see what was loaded."""

import streamlit as st

from compaction.errors import CompactionError
from compaction.importers import all_formats
from dashboard.render import tables
from dashboard.render.charts import tool_calls_figure
from dashboard.render.narrative import agent_title, loading_notes
from dashboard.render.pairs import input_note, other_warnings, warning_text
from dashboard.render.text import literal
from dashboard.render.units import CHARS, SIZE_WORDS, UNIT_LABELS, compact_number, convert, describe
from dashboard.ui import composition_view, loading, state, uploads, views

st.title("Conversation")
st.caption("The agent history to compact. Pick a bundled sample, generate one, or upload your own; "
           "the other pages show what the four compaction layers do to it.")

UPLOAD_KEY = "conversation_upload"
_UPLOAD_DONE = "_upload_done"  # (file id, error or None) of the last upload handled


def use(new: loading.Loaded) -> None:
    """Measure the conversation (so problems surface here), then make it the one on show."""
    loading.prepared(new.key, new.conversation)
    state.set_loaded(new)


def show_loaded() -> None:
    """Run the page again once a new conversation is on show: the sidebar was drawn before it was loaded, and
    its note on what a shared link carries names the conversation on show."""
    st.rerun()


on_show = state.loaded()
# Coming back to the page, the tabs open where the conversation on show came from, not on the samples.
if st.session_state.get(loading.SOURCE_TAB_KEY) not in loading.SOURCE_TABS.values():
    st.session_state[loading.SOURCE_TAB_KEY] = loading.SOURCE_TABS[on_show.origin]
sample_tab, generate_tab, upload_tab = st.tabs(list(loading.SOURCE_TABS.values()), key=loading.SOURCE_TAB_KEY,
                                               on_change="rerun")

with sample_tab:
    names = loading.sample_names()
    shown = on_show.label if on_show.origin == "sample" and on_show.label in names else loading.DEFAULT_SAMPLE
    if on_show.origin != "sample":
        st.caption(f"On show now: **{literal(on_show.label)}** "
                   f"({'your upload' if on_show.origin == 'upload' else 'generated'}). Load a sample to replace it.")
    choice = st.selectbox("Sample", names, format_func=lambda name: f"{loading.sample_title(name)} ({name})",
                          index=names.index(shown) if shown in names else 0, key="sample_choice")
    if st.button("Load this sample", key="load_sample", icon=":material/download:"):
        with st.spinner(f"Loading {choice}…"):
            try:
                use(loading.load_sample(choice))
            except CompactionError as error:
                st.error(f"Could not load {choice}: {error}")
            else:
                show_loaded()

with generate_tab:
    kind = st.radio("Kind", ("realistic", "seed-demo"), horizontal=True, key="generate_kind",
                    format_func={"realistic": "Realistic coding session",
                                 "seed-demo": "The tutorial's demo"}.get)
    knobs = {}
    if kind == "realistic":
        left, right = st.columns(2)
        knobs["turns"] = left.slider("Turns (tool-call rounds)", 1, 2_000, 300, key="generate_turns")
        knobs["parallel_share"] = right.slider("Share of turns with parallel tool calls", 0.0, 1.0, 0.15, 0.05,
                                               key="generate_parallel")
        knobs["typical_output"] = left.number_input("Typical tool output (characters)", 1, 1_000_000, 800,
                                                    key="generate_typical")
        knobs["max_output"] = right.number_input("Largest tool output (characters)", 1, 10_000_000, 100_000,
                                                 key="generate_max")
        knobs["seed"] = left.number_input("Random seed (same seed, same session)", 0, 2**31 - 1, 0,
                                          key="generate_seed")
    if st.button("Generate", key="generate", icon=":material/auto_awesome:"):
        with st.status("Generating the conversation…", expanded=True) as status:
            try:
                st.write("Writing the messages…")
                generated = loading.load_generated(kind, **knobs)
                st.write(f"Measuring {len(generated.conversation.messages):,} messages…")
                use(generated)
                status.update(label="Generated.", state="complete", expanded=False)
            except CompactionError as error:
                status.update(label="Could not generate.", state="error")
                st.error(str(error))
            else:
                show_loaded()

with upload_tab:
    uploaded = st.file_uploader(
        "Conversation file", type=loading.UPLOAD_TYPES, key=UPLOAD_KEY, max_upload_size=loading.UPLOAD_LIMIT_MB,
        help=loading.UPLOAD_HELP)
    st.caption(f"Accepted: {', '.join(entry.title for entry in all_formats())}, whatever the file's name (the "
               f"format is recognised by its content). Up to {loading.UPLOAD_LIMIT_MB} MB per file. The upload is "
               "kept on the server under its content's hash, which the address names: a reload shows it again.")
    if uploaded is None and on_show.origin == "upload":  # the file box empties when the page is left
        st.caption(f"On show now: **{literal(on_show.label)}**, uploaded earlier. Upload another file to replace it.")
    if uploaded is not None:
        done = st.session_state.get(_UPLOAD_DONE)
        if done is None or done[0] != uploaded.file_id:
            reading = st.empty()  # the progress line goes once the file is read: the outcome says the rest
            with reading.status(f"Reading {literal(uploaded.name)}…", expanded=False):
                try:
                    use(uploads.take(uploaded.getvalue(), uploaded.name))
                    done = (uploaded.file_id, None)
                except CompactionError as error:
                    done = (uploaded.file_id, str(error))
            reading.empty()
            st.session_state[_UPLOAD_DONE] = done
            if done[1] is None:
                show_loaded()
        if done[1]:
            st.error(f"**{literal(uploaded.name)} could not be read**, so the previous conversation stays loaded.\n\n"
                     f"{literal(done[1])}")

if on_show.origin == "upload" and on_show.upload:  # a file of several sessions: which one is on show
    uploads.session_picker(on_show, use)

loaded = state.loaded()
conversation = loaded.conversation
history = state.history()
unit = state.unit()
model = history.token_model

st.header(f"Loaded: {literal(loaded.label)}")
counts = tables.tool_call_counts(history.messages)
format_col, messages_col, size_col, calls_col = st.columns(4)
format_col.metric("Format", loading.format_title(conversation.format))
messages_col.metric("Messages", f"{len(history.messages):,}")
size_col.metric(f"Size ({'characters' if unit == CHARS else 'tokens'})", compact_number(convert(history.size, unit, model)),
                help=f"{convert(history.size, unit, model):,} {SIZE_WORDS[unit]}: the message list as the tutorial "
                     "measures it, len(str(messages)).")
calls_col.metric("Tool calls", f"{int(counts['calls'].sum()):,}")
if history.overhead:
    st.caption(f"The system prompt and tool definitions add {describe(history.overhead, unit, model)}; they count "
               "against CONTEXT_LIMIT but are never compacted.")

pair_problems = history.pair_problems()
pair_note = input_note(pair_problems, history)
if pair_note:
    st.info(pair_note, icon=":material/info:")
warnings = other_warnings(conversation.warnings, pair_problems)
if warnings:
    listed = warnings[:20]
    more = len(warnings) - len(listed)
    st.warning("**The importer noted:**\n" + "\n".join(f"- {literal(warning_text(warning))}" for warning in listed)
               + (f"\n- … and {more:,} more" if more else ""))

for note in loading_notes(conversation.metadata, agent_title(conversation)):
    st.info(literal(note), icon=":material/info:")

composition_view.conversation_section()

if len(counts):
    st.subheader("Tool calls by tool")
    st.plotly_chart(tool_calls_figure(counts), width="stretch", config={"displayModeBar": False})

st.subheader("Messages")
st.caption("Select a row to read the whole message below. 'index' is the message number in the loaded "
           "conversation, counted from 0: every page numbers messages this way.")
frame = tables.message_frame(history, unit)
event = st.dataframe(
    frame, hide_index=True, height=360, width="stretch", on_select="rerun", selection_mode="single-row",
    key="message_table",
    column_config=views.whole_columns(
        frame, {"size": st.column_config.NumberColumn(f"size ({UNIT_LABELS[unit]})", format="localized")},
        {"index": "count", "size": "count"}),
)
row = views.selected_row(event)
if not len(frame):
    st.info("This conversation has no messages.")
elif row is None:
    index = st.number_input("…or type a message index", 0, len(history.messages) - 1, 0, key="message_index")
else:
    index = int(frame.iloc[row]["index"])
if len(frame):
    views.message_viewer(history, index, unit, key="conversation_message")

"""Sessions page: every session of a folder or .zip in one table, any of them opened for the other pages,
and a sweep of two settings across all of them."""

import streamlit as st

from compaction.corpus import agent_homes
from compaction.errors import CompactionError
from compaction.importers import suffixes
from compaction.measures import MEASURES
from dashboard.render.corpus_charts import corpus_heatmap, corpus_tradeoff, statistic_sweep
from dashboard.render.corpus_tables import (
    COLUMN_KINDS,
    RowFilter,
    corpus_summary,
    default_columns,
    formats_of,
    sessions_frame,
)
from dashboard.render.grid_widths import fitting_widths
from dashboard.render.text import literal
from dashboard.render.units import dollars
from dashboard.ui import corpus_state, live_state, tuning, views
from dashboard.ui.client import client_reach
from dashboard.ui.loading import UPLOAD_LIMIT_MB
from dashboard.ui.navigation import PAGES_DIR

# Three values per setting: a corpus sweep replays every session once per cell.
CORPUS_AXES = {"context_limit": (20_000, 50_000, 100_000), "keep_recent": (1, 3, 5),
               "persist_threshold": (10_000, 30_000, 60_000), "max_messages": (20, 50, 100),
               "max_bytes": (100_000, 200_000, 400_000), "preview_chars": (500, 2_000, 5_000)}
# to a hundredth of a cent: a subagent's few calls often cost less than a cent
NUMBER_FORMATS = {"count": "localized", "share": "percent", "usd": "$%.4f"}
CORPUS_TRADE_OFF_KEY = "sessions_tradeoff"


def column_config(title: str, width: int):
    """A column of the sessions table in its format, as wide as its widest value (grid_widths)."""
    kind = COLUMN_KINDS.get(title, "text")
    if kind in NUMBER_FORMATS:
        return st.column_config.NumberColumn(format=NUMBER_FORMATS[kind], width=width)
    if kind == "time":
        return st.column_config.DatetimeColumn(width=width)
    return st.column_config.TextColumn(width=width)


st.title("Sessions")
st.caption("Many sessions at once: a folder of session logs (searched in every sub-folder) or a .zip of them. "
           "One row per session with what its log holds and what the compaction settings in the sidebar would "
           "send; select a row to open that session in every other page.")

reach = client_reach()
with st.expander("Where the work runs"):
    if reach.schedulers_refusal:
        st.info(reach.schedulers_refusal, icon=":material/lock:")
    elif reach.schedulers:
        st.caption("This server may use the Dask schedulers: " + ", ".join(literal(address)
                                                                          for address in reach.schedulers))
    scheduler = st.text_input(
        "Dask scheduler address (optional)", key=corpus_state.SCHEDULER_KEY, placeholder="tcp://10.0.0.5:8786",
        disabled=reach.schedulers == (),
        help="Spread the sessions over a Dask distributed cluster. Its workers need this project installed and "
             "must see the folder at the same path. Leave empty to use this machine.")
    st.number_input("Worker processes on this machine", 1, 64, corpus_state.default_workers(),
                    key=corpus_state.WORKERS_KEY, disabled=bool(scheduler.strip()),
                    help="1 runs everything inside the app's own process.")

folder_tab, zip_tab = st.tabs(["A folder", "Upload a .zip"])
with folder_tab:
    for number, (agent, suggestion) in enumerate(corpus_state.agent_folders()):
        st.button(f"Use my {agent} sessions ({suggestion})", key=f"sessions_use_agent_{number}",
                  icon=":material/history:",
                  on_click=lambda folder=suggestion: st.session_state.update({corpus_state.FOLDER_KEY: str(folder)}))
    if reach.folders_refusal:  # the field stays: what is typed is refused with the same sentence
        st.info(reach.folders_refusal, icon=":material/lock:")
    elif reach.folders == ():
        st.info("This server reads no folders of its own: upload a .zip of sessions instead.", icon=":material/info:")
    elif reach.folders is not None:
        st.caption("This server reads sessions only from: " + ", ".join(literal(str(base)) for base in reach.folders))
    folder = st.text_input("Folder", key=corpus_state.FOLDER_KEY, placeholder=f"/home/me/{agent_homes()[0].shown[2:]}",
                           disabled=reach.folders == (),
                           help=f"Every {', '.join(suffixes())} file under it is a session. Nothing outside it is "
                                "read: links pointing out of it are listed as refused.")
    if st.button("Read this folder", key="sessions_read", type="primary", icon=":material/folder_open:",
                 disabled=reach.folders == ()):
        try:
            corpus_state.use_folder(folder)
        except CompactionError as error:
            st.error(literal(str(error)))
with zip_tab:
    uploaded = st.file_uploader("A .zip of session files", type=["zip"], key="sessions_zip",
                                max_upload_size=UPLOAD_LIMIT_MB)
    if uploaded is not None:
        try:
            corpus_state.use_archive(uploaded.getvalue(), uploaded.name, uploaded.file_id)
        except CompactionError as error:
            st.error(literal(str(error)))

source = corpus_state.source()
if source is None:
    st.info("Choose a folder or upload a .zip to see its sessions.", icon=":material/info:")
    st.stop()
try:
    files = source.files(reach)
except CompactionError as error:
    st.error(literal(str(error)))
    st.stop()

paths = len({item.relative for item in files})
st.header(f"{literal(source.label)}: {len(files):,} session files" if paths == len(files) else
          f"{literal(source.label)}: {len(files):,} sessions in {paths:,} files")
if paths != len(files):
    st.caption("An evaluation output holding several runs, one a line, is one session per run, named by its "
               "instance.")
job = corpus_state.job()
if corpus_state.requested(corpus_state.ROWS):
    corpus_state.run(corpus_state.ROWS, files, job)
last = corpus_state.last(corpus_state.ROWS)
if last is None:
    st.button("Analyse these sessions", key="sessions_analyse", type="primary", icon=":material/play_arrow:",
              on_click=corpus_state.request, args=(corpus_state.ROWS,))
    st.stop()
key, result = last
if key != corpus_state.result_key(files, job):
    st.info("The sidebar's settings or the files changed since these rows were computed.", icon=":material/update:")
    st.button("Analyse again", key="sessions_reanalyse", icon=":material/refresh:",
              on_click=corpus_state.request, args=(corpus_state.ROWS,))
if result.cancelled:
    st.warning(f"Cancelled: {len(result.rows):,} of {result.sessions:,} sessions were analysed.")

summary = corpus_summary(result.rows)
for column, (label, value, note) in zip(st.columns(6), (
        ("Sessions", f"{summary['sessions']:,}", None),
        ("Subagents", f"{summary['subagents']:,}", "Subagents' own logs, each listed under the session that ran it."),
        ("Could not be read", f"{summary['unreadable']:,}", None),
        ("Model calls", f"{summary['model_calls']:,}", None),
        ("Recorded cost", dollars(summary["recorded_cost_usd"]),
         "What these sessions and subagents cost: every response's recorded usage at its model's price, or the "
         "run's totals where a log gives only those."),
        ("Median saving", "–" if summary["median_saved"] is None else f"{summary['median_saved']:.0%}", None)),
        strict=True):
    column.metric(label, value, help=note)

search_col, format_col = st.columns([2, 1])
row_filter = RowFilter(
    search_col.text_input("Search project, path or session id", key="sessions_search",
                          help="A session's id also finds its subagents."),
    tuple(format_col.multiselect("Formats", formats_of(result.rows), key="sessions_formats")),
    *(column.checkbox(label, key=f"sessions_only_{name}") for column, (name, label) in zip(st.columns(4), (
        ("errors", "Only unreadable files"), ("pairs", "Only with pair problems"),
        ("compactions", "Only with the log's own compactions"), ("sessions", "Hide subagents")), strict=True)))
shown = [row for row in result.rows if row_filter.keeps(row)]
frame = sessions_frame(shown)
columns = views.column_picker(frame, default_columns(frame), key="sessions_columns")
event = st.dataframe(
    frame, hide_index=True, height="auto" if len(shown) <= 12 else 460, width="stretch", on_select="rerun",
    selection_mode="single-row", key="sessions_table", column_order=columns or None,
    column_config={title: column_config(title, width) for title, width in fitting_widths(frame, COLUMN_KINDS).items()})
st.caption(f"{len(shown):,} of {len(result.rows):,} sessions shown. Each subagent (↳) is listed under the session "
           "that ran it. 'Recorded cost' is what the log's own calls cost, each response's recorded usage at its "
           "model's price; where a log gives only its run's totals, 'recorded from' says so: the recorded cost and "
           "tokens are those totals (the log's own cost when it states one) and every per-call figure is estimated. "
           "'Cost with these settings' is what the sidebar's compaction would send, with prompt "
           "caching; 'price notes' name any model the price table lacks (priced at the settings' prices). Tokens are "
           "estimated from characters unless the log recorded them; 'pair problems' count tool "
           "calls and results that do not match (the API would refuse such a request).")
picked = views.selected_row(event)
if picked is not None and picked < len(shown):
    chosen = shown[picked]
    if chosen["error"]:
        st.error(f"**{literal(chosen['path'])} cannot be opened.** {literal(chosen['error'])}")
    else:
        try:
            corpus_state.open_row(chosen, files)
            whose = f" (a subagent of session {literal(chosen['subagent_of'])})" if chosen.get("subagent_of") else ""
            run = chosen.get("run_line") is not None  # one run of an evaluation output
            which = f" [{literal(chosen['session'])}]" if run else ""
            st.success(f"Opened **{literal(chosen['path'])}**{which}{whose}: every other page now shows this session.")
            st.page_link(PAGES_DIR / "conversation.py", label="See it on the Conversation page", icon=":material/forum:")
            # an upload is all a remote browser has: nothing of it grows; an evaluation output is written
            # once its runs are over: nothing to follow
            if not reach.folders_refusal and not run:
                live_state.follow_button(source.folder, chosen["path"])
        except CompactionError as error:
            st.error(literal(str(error)))

st.header("Sweep all sessions")
st.caption("Tune across the whole corpus: every session is replayed for every pair of settings; each cell shows "
           "the median session and, below it, the 90th percentile (nine sessions in ten are at or below it).")
x_col, y_col, measure_col = st.columns(3)
x_name, x_values, y_name, y_values = tuning.axes_inputs(x_col, y_col, "sessions_sweep", CORPUS_AXES)
measure = measure_col.selectbox("Measure", list(MEASURES), key="sessions_sweep_measure", format_func=lambda name: MEASURES[name].label)
if x_name == y_name:
    st.error("Pick two different settings.")
    st.stop()
if x_values is None or y_values is None:
    st.stop()
sweep_job = corpus_state.job((x_name, x_values), (y_name, y_values))
st.button(f"Sweep {len(files):,} sessions × {len(x_values) * len(y_values):,} pairs of settings",
          key="sessions_sweep", type="primary", icon=":material/grid_on:",
          on_click=corpus_state.request, args=(corpus_state.SWEEP,))
if corpus_state.requested(corpus_state.SWEEP):
    corpus_state.run(corpus_state.SWEEP, files, sweep_job)
swept = corpus_state.last(corpus_state.SWEEP)
if swept is None:
    st.stop()
sweep_key, sweep_result = swept
aggregate = sweep_result.sweep
if sweep_key != corpus_state.result_key(files, sweep_job):
    st.info("This sweep was computed for other axes, settings or files; press the button to sweep again.",
            icon=":material/update:")
if sweep_result.cancelled:
    st.warning(f"Cancelled: the cells summarise the {aggregate['sessions']:,} sessions swept before.")
st.subheader(MEASURES[measure].label)
st.plotly_chart(corpus_heatmap(aggregate, measure), width="stretch", config={"displayModeBar": False},
                key="sessions_heatmap")
st.caption(f"Over {aggregate['sessions']:,} readable sessions; {MEASURES[measure].darker}.")

st.subheader("Trade-off")
present = [name for name in MEASURES if name in aggregate["measures"]]


def default_index(name: str) -> int:
    return present.index(name) if name in present else 0


cost_col, loss_col = st.columns(2)
cost = cost_col.selectbox("What it costs", present, index=default_index("cost_usd"), key="sessions_tradeoff_cost",
                          format_func=lambda name: MEASURES[name].label)
loss = loss_col.selectbox("What it loses", present, index=default_index("blind_references"),
                          key="sessions_tradeoff_loss", format_func=lambda name: MEASURES[name].label)
median_session = statistic_sweep(aggregate)
tuning.show_grid(median_session)
st.plotly_chart(corpus_tradeoff(aggregate, cost, loss), width="stretch", config={"displayModeBar": False},
                key=CORPUS_TRADE_OFF_KEY, on_select=lambda: tuning.apply_clicked_cell(CORPUS_TRADE_OFF_KEY),
                selection_mode="points")
st.caption("Each point is a pair of settings, placed where the median session puts it; the line joins those no "
           "other pair beats on both. Click a point to put its settings into the sidebar.")

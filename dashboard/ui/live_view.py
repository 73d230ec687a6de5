"""The live view: a Streamlit fragment that reruns itself every EVERY_SECONDS, reads what the agent added
to its log since the last run (the follower keeps its offset; at most READ_BYTES a run, so a long file
already there is caught up over a few runs without freezing the page) and redraws the figures, the
forecasts and the newest calls. Nothing is read twice: the page says where every read started and ended.
"""

import streamlit as st

from compaction.errors import CompactionError
from compaction.importers import load_conversation
from compaction.live import forecast, rule_for
from compaction.measures import paid_and_final
from compaction.words import plural
from dashboard.render.live_chart import live_figure
from dashboard.render.live_text import calls_rows, forecast_sentences, reads_sentence
from dashboard.render.text import literal
from dashboard.ui import composition_view, live_state

EVERY_SECONDS = 2.0
READ_BYTES = 32 * 1024 * 1024
CATCHING_UP_BYTES = 1024 * 1024
_BRANCHES_KEY = "live_branches"
NUMBER = st.column_config.NumberColumn(format="localized")


@st.fragment(run_every=EVERY_SECONDS)
def live_view(what_if: tuple[str, dict] | None) -> None:
    follower = live_state.follower()
    if follower is None:
        return
    try:
        for _ in follower.updates(READ_BYTES, forecasts=False):
            pass  # the session keeps what it needs; the page draws the newest state
    except (CompactionError, OSError) as error:
        st.error(f"**{literal(str(follower.path))} cannot be followed.** {literal(str(error))}")
        return
    session = follower.session
    st.subheader(f"{literal(follower.path.name)} ({follower.title})")
    if follower.source.partial > CATCHING_UP_BYTES:  # more than a line being written: lines left for the next run
        st.caption(f"Catching up: {follower.source.partial:,} bytes still to read.")
    if session is None or not len(session.calls):
        st.info("Waiting for the first model call to be written…", icon=":material/hourglass_top:")
        st.caption(reads_sentence(follower.source))
        return
    agent = follower.forecast()
    other = None
    if what_if is not None:
        try:
            other = forecast(session, rule_for(what_if[0], what_if[1], session))
        except CompactionError as error:
            st.error(literal(str(error)))
    _metrics(session, agent)
    _branches(follower, len(session.calls))
    for title, found in (("The agent's next compaction", agent), ("What if", other)):
        if found is None:
            continue
        st.markdown(f"**{title}: {literal(found.label)}.** " + " ".join(literal(s) for s in forecast_sentences(found)))
    st.plotly_chart(live_figure(session, agent, other), width="stretch", config={"displayModeBar": False},
                    key="live_chart")
    composition_view.live_section(session, agent)
    st.dataframe(calls_rows(session), hide_index=True, width="stretch",
                 column_config={name: NUMBER for name in ("tokens", "growth", "cache read", "cache written", "output")}
                 | {"cost (US$)": st.column_config.NumberColumn(format="dollar")})
    st.caption(f"The newest calls first. Kept in memory: {len(session.calls):,} calls as columns of numbers "
               f"({session.calls.nbytes():,} bytes), never the messages' text.")
    _notes(follower)


def _metrics(session, agent) -> None:
    calls_col, now_col, left_col, cost_col = st.columns(4)
    calls_col.metric("Model calls", f"{len(session.calls):,}", f"{plural(len(session.compactions), 'compaction')} by the agent",
                     delta_color="off", delta_arrow="off")
    now_col.metric("Tokens in context now", f"{agent.tokens_now:,}",
                   help="The newest call's context, plus its output and what was written since (characters / 4).")
    calls = "before the next call" if agent.calls_left == 1 else "calls not known yet" if agent.calls_left is None \
        else f"about {agent.calls_left:,} calls"
    left_col.metric("Tokens to the agent's compaction", f"{max(agent.tokens_left, 0):,}", calls, delta_color="off",
                    delta_arrow="off", help=f"{agent.label} compacts at {agent.threshold:,} tokens.")
    cost_col.metric("Cost so far", f"${session.cost_usd:,.4f}", help="Every call at its model's price, as recorded.")


def _branches(follower, seen: int) -> None:
    """Live counts every call the file holds, on whichever branch; Replay the final branch's. When the file
    has been read to its end, the one sentence every page gives says both (read once per size of the file)."""
    if follower.source.partial:
        return
    key = (str(follower.path), follower.source.offset)
    cached = st.session_state.get(_BRANCHES_KEY)
    if cached is None or cached[0] != key:
        try:
            paid = paid_and_final(load_conversation(follower.path, format=follower.format or "auto"))
        except CompactionError:
            return
        cached = (key, paid)
        st.session_state[_BRANCHES_KEY] = cached
    paid = cached[1]
    if paid.paid_calls == seen:
        st.caption(f"The file as Replay reads it: {literal(paid.sentence())}.")
    else:
        st.caption(f"The file as Replay reads it: {literal(paid.sentence())}; Live saw {seen:,} calls with usage.")


def _notes(follower) -> None:
    source, session = follower.source, follower.session
    restarted = [read for read in source.reads if read.restarted]
    if restarted:
        st.warning(f"Read again from the start: {literal(restarted[-1].restarted)}.", icon=":material/restart_alt:")
    for note in list(session.notes)[-3:]:
        st.caption(f"{source.unit.capitalize()} {note.line:,}: {literal(note.text)}.")
    if session.lines_skipped:
        st.caption(f"{plural(session.lines_skipped, 'line')} skipped: not JSON objects.")
    for text in session.price_notes:
        st.caption(literal(text))
    st.caption(reads_sentence(source))

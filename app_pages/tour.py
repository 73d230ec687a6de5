"""Guided tour: the four layers one at a time on the tutorial's demo conversation, in plain words, with
Back and Next, for a live demo to people who do not code; then the same tour on the loaded session, with its
own numbers and its agent's own compactions. The words are in dashboard/render/tour_text.py and
own_tour_text.py."""

import streamlit as st

from dashboard.render.glossary import glossary_markdown
from dashboard.render.own_tour import own_step_figure, own_tour_numbers
from dashboard.render.own_tour_text import OWN_STEPS
from dashboard.render.text import literal
from dashboard.render.tour import TOUR_SETTINGS, blocks_figure, row_label, saving_figure, tour_numbers
from dashboard.render.tour_text import STEPS
from dashboard.ui import compaction_state, loading, state
from dashboard.ui.navigation import PAGES_DIR

STEP_KEY = "tour_step"
WHICH_KEY = "tour_which"
EXAMPLE, OWN = "The tutorial's example", "Your loaded session"
CHART_CONFIG = {"displayModeBar": False}
BEFORE = {"L3": "input", "L1": "L3", "L2": "L1", "L4": "L2"}  # the stage each layer starts from


def move(by: int, count: int) -> None:
    st.session_state[STEP_KEY] = min(max(st.session_state.get(STEP_KEY, 0) + by, 0), count - 1)


def restart() -> None:
    st.session_state[STEP_KEY] = 0


st.title("Guided tour")
which = st.radio("Which session", (EXAMPLE, OWN), key=WHICH_KEY, horizontal=True, on_change=restart,
                 help="The tour starts on the tutorial's example; the same tour then runs on the session you loaded.")
own = which == OWN
if own:
    loaded = state.loaded()
    st.caption(f"The tour on **{literal(loaded.label)}**, the session loaded on the Conversation page, at the "
               "sidebar's settings, with the offline summariser (it needs no AI).")
    with st.spinner("Reading your session…"):
        result, history, cards = state.offline_result(), state.history(), compaction_state.cards()
        numbers = own_tour_numbers(loaded.label, history, state.model_window(), result, cards)
    steps = OWN_STEPS
else:
    st.caption("How an AI agent keeps its conversation small enough, in six steps on the tutorial's example. "
               "This tour ignores the sidebar: it always uses the example conversation with CONTEXT_LIMIT "
               f"{TOUR_SETTINGS.context_limit:,} characters (the tutorial's default is 50,000: too big for every layer "
               "to act on so small an example), and the offline summariser, which needs no AI.")
    result = state.tour_result()
    numbers = tour_numbers(result)
    steps = STEPS
stages = {stage.layer: stage for stage in result.stages}
number = min(max(st.session_state.get(STEP_KEY, 0), 0), len(steps) - 1)
step = steps[number]

st.progress((number + 1) / len(steps), text=f"Step {number + 1} of {len(steps)}: {step.title}")
st.caption(" → ".join(f"**{s.title.split(':')[0]}**" if s is step else s.title.split(":")[0] for s in steps))

back_col, next_col, _ = st.columns([1, 1, 4])
back_col.button("Back", on_click=move, args=(-1, len(steps)), disabled=number == 0, key="tour_back",
                icon=":material/arrow_back:", width="stretch")
next_col.button("Next", on_click=move, args=(1, len(steps)), disabled=number == len(steps) - 1, key="tour_next",
                icon=":material/arrow_forward:", type="primary", width="stretch")

st.header(step.title)
st.markdown(f"#### {step.lead.format(**numbers)}")
st.markdown(step.what.format(**numbers))

if own:
    figure = own_step_figure(step.key, history, result, cards)
elif step.key == "intro":
    figure = blocks_figure([(row_label("The whole conversation", stages["input"].history), stages["input"].history)],
                           limit=TOUR_SETTINGS.context_limit)
elif step.key == "recap":
    figure = saving_figure(result)
else:
    before, after = stages[BEFORE[step.key]].history, stages[step.key].history
    figure = blocks_figure([(row_label("Before", before), before), (row_label("After", after), after)],
                           limit=TOUR_SETTINGS.context_limit if step.key == "L4" else None)
st.plotly_chart(figure, width="stretch", config=CHART_CONFIG, key=f"tour_chart_{'own_' if own else ''}{step.key}")
st.info(f"**Why?** {step.why.format(**numbers)}", icon=":material/lightbulb:")

if number == len(steps) - 1 and not own and st.button(
        "Try it on your own session", key="tour_try_your_own", icon=":material/upload_file:", type="primary",
        help="Opens the Conversation page on its upload tab; then come back and choose \"Your loaded session\"."):
    loading.open_upload_tab()
    st.switch_page(PAGES_DIR / "conversation.py")

with st.expander("Words used here", expanded=True):
    st.markdown(glossary_markdown())

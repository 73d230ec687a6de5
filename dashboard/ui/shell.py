"""The shared sidebar: the compaction settings and the summariser choice.

The app's run (dashboard/ui/navigation.py) draws it once, before the page, so the sliders hold across
pages.
"""

import streamlit as st

from compaction.llm import default_model
from compaction.storage import safe_name
from dashboard.render import log_view
from dashboard.render.glossary import glossary_markdown
from dashboard.render.html_report import report_html
from dashboard.render.text import literal
from dashboard.render.units import UNIT_LABELS, UNITS
from dashboard.ui import api_key, compaction_state, state
from dashboard.ui.loading import DEFAULT_SAMPLE


def slider(spec: state.SliderSpec) -> None:
    """One setting: a slider of round values on a log scale, and below it a box for an exact value.

    The box holds the value (its key is the setting's, bound to the URL: a link carries CONTEXT_LIMIT=5000);
    it is drawn first, into the lower place, so the slider shows what a link or Tune just set."""
    track, box = st.container(), st.container()
    value = int(box.number_input(f"{spec.name}: exact value", spec.minimum, spec.maximum, spec.default, spec.box_step,
                                 key=spec.key, format="%d", bind="query-params", label_visibility="collapsed",
                                 help=f"Any whole number from {spec.minimum:,} to {spec.maximum:,}."))
    scale_key = f"{spec.key}{SCALE_SUFFIX}"
    st.session_state[scale_key] = value
    track.select_slider(spec.label, spec.options(value), key=scale_key, format_func=_thousands, help=spec.help,
                        on_change=_from_slider, args=(spec,))
    changed = f":orange[Set by you; the tutorial's: {spec.default:,}.] " if value != spec.default else ""
    box.caption(changed + spec.effect)


SCALE_SUFFIX = "_scale"  # the slider's own key: its value is copied to the box's, which the pages read


def _thousands(value: int) -> str:
    return f"{value:,}"


def _from_slider(spec: state.SliderSpec) -> None:
    st.session_state[spec.key] = st.session_state[f"{spec.key}{SCALE_SUFFIX}"]


def glossary_popover() -> None:
    with st.popover("Words used here", icon=":material/menu_book:", width="stretch"):
        st.markdown(glossary_markdown())


def settings_controls() -> None:
    st.subheader("Compaction settings")
    for spec in state.MAIN_SLIDERS:
        slider(spec)
    with st.expander("Advanced"):
        for spec in state.ADVANCED_SLIDERS:
            slider(spec)
    st.button("Reset to the tutorial's defaults", on_click=state.reset_settings, icon=":material/restart_alt:",
              key="reset_settings")
    st.radio("Show sizes in", UNITS, format_func=UNIT_LABELS.get, key=state.UNIT_KEY, horizontal=True,
             bind="query-params",
             help="Characters are what the tutorial counts; tokens are estimated as characters / 4.")
    share_note()


def share_note() -> None:
    """What a copied address carries: the settings and the page, never the conversation. For an upload,
    the report is offered instead (it holds this file's figures and charts)."""
    loaded = state.loaded()
    if loaded.origin == "sample" and loaded.label == DEFAULT_SAMPLE:
        st.caption("The address bar keeps these settings and the page: copy it to share this view of the default "
                   "sample.")
        return
    if loaded.origin != "upload":
        where = ("load the same sample" if loaded.origin == "sample" else "generate it with the same knobs")
        st.caption(f"The address bar keeps these settings and the page, not the conversation: whoever opens it sees "
                   f"the default sample until they {where} on the Conversation page.")
        return
    st.warning(f"The address bar keeps these settings, not your file: whoever opens the link sees the default sample, "
               f"not {literal(loaded.label)}. Send the report instead.", icon=":material/link_off:")
    result, replay_later = state.result(), state.replay_later()
    cards_later = compaction_state.cards_later()
    unit, label = state.unit(), loaded.label
    view_note = log_view.view_sentence(state.pipeline_view(), unit)
    st.download_button("Download the report",
                       data=lambda: report_html(result, replay_later(), label, unit, view_note, cards_later()),
                       file_name=f"{safe_name(label.rsplit('.', 1)[0])}_report.html", mime="text/html",
                       on_click="ignore", icon=":material/description:", key="share_report",
                       help="One HTML file with this file's figures and charts, which opens offline in any browser.")


def _take_typed_key() -> None:
    """Move the typed key out of the widget at once, so it is never drawn again."""
    api_key.set_typed_key(st.session_state.get("claude_key_field", ""))
    st.session_state["claude_key_field"] = ""


def summarizer_controls() -> None:
    st.subheader("L4 summariser")
    choice = st.radio("Who writes the L4 summary", (state.OFFLINE, state.CLAUDE), key=state.SUMMARIZER_KEY,
                      format_func={state.OFFLINE: "Offline (no LLM, default)", state.CLAUDE: "Claude"}.get,
                      help="The offline summariser fills the tutorial's five headings from the conversation "
                           "itself. Claude is asked only when you press the button below.")
    if choice != state.CLAUDE:
        return
    if api_key.typed_key():
        st.caption("An API key is set for your workspace only (kept in memory, never shown or saved).")
        st.button("Forget the key", on_click=api_key.forget_typed_key)
    elif api_key.environment_key():
        st.caption("Using the key in the ANTHROPIC_API_KEY environment variable.")
    else:
        st.text_input("Anthropic API key", type="password", key="claude_key_field", on_change=_take_typed_key,
                      help="Used for your workspace only: never shown again, logged or written to disk.")
    has_key = bool(api_key.typed_key()) or api_key.environment_key()
    if st.button("Summarise with Claude", disabled=not has_key, type="primary", icon=":material/smart_toy:",
                 key="summarise_with_claude",
                 help=f"Runs the pipeline again with {default_model()} writing the L4 summary."):
        with st.spinner("Asking Claude for the L4 summary…"):
            outcome = state.run_with_claude()
        summary = outcome.summary
        if summary is None or not summary.triggered:
            st.info("L4 does not fire at these settings, so there was nothing for Claude to summarise. "
                    "Lower CONTEXT_LIMIT to make it fire.")
        elif summary.error:
            st.error(summary.error)
        else:
            st.success(f"Claude wrote the L4 summary ({len(summary.text):,} characters). "
                       "See the What changed page.")
    if state.claude_result() is None:
        st.caption("Until you press the button, the pages show the offline summary.")


def sidebar() -> None:
    with st.sidebar:
        glossary_popover()
        settings_controls()
        summarizer_controls()


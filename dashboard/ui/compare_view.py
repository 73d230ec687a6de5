"""The Compare page's sections: each strategy's parameters (the tutorial pipeline's are the sidebar's), the
replays, the tables beside what the log says, and where each strategy comes from."""

import streamlit as st

from compaction.errors import SettingsError
from compaction.replay import ReplayResult
from compaction.strategies import REGISTRY, build
from dashboard.render import comparison
from dashboard.render.compare_table import (
    BEST,
    COST_COLUMNS,
    LOSS_COLUMNS,
    NO_COMPACTION,
    THE_LOG,
    compare_frame,
    what_it_did,
)
from dashboard.render.fidelity_table import whose_compactions
from dashboard.render.price_words import cost_parts_sentence, priced_sentence, session_cost_sentence
from dashboard.render.setting_words import SETTING_WORDS
from dashboard.render.timeline import STRATEGY_TITLES
from dashboard.ui import compare_form, state

FOLLOWS_SIDEBAR = "pipeline"  # the same replay as the Replay page's: the sidebar's settings


def parameters(chosen: list[str]) -> dict[str, dict]:
    """Each chosen strategy's parameters from its popover; a bad combination is named and left out. A
    popover whose parameters were changed says so on its button."""
    found, problems = {}, {}
    with st.container(horizontal=True):
        for name in chosen:
            spec = REGISTRY[name]
            changed = sidebar_changes() if name == FOLLOWS_SIDEBAR else \
                compare_form.changed(name, compare_form.values_now(name))
            with st.popover(f"{spec.label} · changed" if changed else spec.label, icon=":material/tune:",
                            help=f"Parameters of {spec.title}" + (" (some set by you)" if changed else "")):
                st.markdown(f"**{spec.title}**  \n{spec.description}")
                if name == FOLLOWS_SIDEBAR:
                    _sidebar_settings()
                    found[name] = {}
                    continue
                values = compare_form.parameter_form(name)
            try:
                found[name] = build(name, values).params
            except SettingsError as error:
                problems[name] = str(error)
    for name, problem in problems.items():
        st.error(f"{REGISTRY[name].label} is left out: {problem}")
    return found


def sidebar_changes() -> dict:
    """The sidebar's settings that differ from the tutorial's, by their names (the pipeline's row)."""
    current = state.settings()
    return {SETTING_WORDS[spec.field].name: getattr(current, spec.field) for spec in state.SLIDERS
            if getattr(current, spec.field) != spec.default}


def row_labels(chosen: dict[str, dict]) -> dict[str, str]:
    """Each strategy's name in the tables, with the parameters set by you beside it."""
    labels = {}
    for name, values in chosen.items():
        changed = sidebar_changes() if name == FOLLOWS_SIDEBAR else compare_form.changed(name, values)
        words = f" (set by you: {compare_form.changed_words(changed)})" if changed else ""
        labels[name] = STRATEGY_TITLES.get(name, name) + words
    return labels


def catalog() -> None:
    """Every strategy the registry has, by title, each in one line: what can be added above."""
    with st.expander("Every strategy, in one line each"):
        st.markdown("\n".join(f"- **{spec.label}** ({spec.title}): {spec.description}" for spec in REGISTRY.values()))


def _sidebar_settings() -> None:
    current = state.settings()
    lines = [f"- {SETTING_WORDS[spec.field].name}: {getattr(current, spec.field):,}"
             + (f" (set by you; the tutorial's: {spec.default:,})" if getattr(current, spec.field) != spec.default
                else "") for spec in state.SLIDERS]
    st.markdown("Follows the sidebar, as the Replay and Tune pages do: move its sliders to change it.\n"
                + "\n".join(lines))


def bold_lines(place, names: list[str], format: str | None) -> list[str]:
    """Which lines the chart draws thick: by default what the agent did and its own rule (for a log of an
    agent that has one), else the tutorial pipeline; the reader picks others."""
    preferred = compare_form.default_choice(format)[:2] if compare_form.own_preset(format) else \
        ["as-recorded", FOLLOWS_SIDEBAR]
    default = [name for name in preferred if name in names]
    return place.pills("Draw in bold", names, default=default, format_func=compare_form.title,
                       selection_mode="multi", key=compare_form.BOLD_KEY,
                       help="The lines picked are drawn thick, the others thin and faint.") or []


def replays(chosen: dict[str, dict]) -> dict[str, ReplayResult]:
    return {name: state.replay_result() if name == FOLLOWS_SIDEBAR else state.strategy_replay(name, values)
            for name, values in chosen.items()}


def truth_headline(reference: ReplayResult) -> None:
    st.markdown(f"**{comparison.stop_headline(reference)}**")
    st.caption(" ".join(part for part in (session_cost_sentence(reference), priced_sentence(reference),
                                          state.calls_paid_sentence(), whose_compactions(reference)) if part))


def tables(results: dict[str, ReplayResult], labels: dict[str, str] | None = None) -> None:
    reference = next(iter(results.values()))
    st.subheader("Tokens and cost")
    st.table(compare_frame(results, COST_COLUMNS, references=True, labels=labels), hide_index=True)
    rows = f"**{THE_LOG}**: what the agent really paid, from its log's usage" \
        + (" (the run's totals: the log gives no call's own, so it has no figure over part of the calls)"
           if reference.totals["recorded_from_totals"] else "") + ". " \
        if reference.totals["recorded_cost_usd"] is not None else ""
    stop = comparison.past_stop(reference)
    st.caption(rows + f"**{NO_COMPACTION}**: the session never compacted, over the calls it can make"
               + (f" ({stop}: the agent stops there)" if stop else "") + ". "
               + " ".join(f"**{c.heading(reference)}**: {c.help}" for c in COST_COLUMNS))
    for name, result in results.items():
        if REGISTRY[name].follows_log and (parts := cost_parts_sentence(STRATEGY_TITLES.get(name, name), result)):
            st.caption(parts)
    st.subheader("What the model loses")
    st.table(compare_frame(results, LOSS_COLUMNS, labels=labels), hide_index=True)
    st.caption(f"{BEST} best trade-off: no other strategy here costs less over the whole session while losing "
               "fewer names and keeping as much of the tool output whole. "
               + " ".join(f"**{c.heading(reference)}**: {c.help}" for c in LOSS_COLUMNS))
    st.markdown("**What each did**\n" + "\n".join(f"- {STRATEGY_TITLES.get(name, name)}: {what_it_did(result)}"
                                                for name, result in results.items()))


def sources(results: dict[str, ReplayResult]) -> None:
    st.subheader("Where each strategy comes from")
    for name in results:
        spec = REGISTRY[name]
        cited = "; ".join(f"[{s.label}]({s.url})" if s.url else s.label for s in spec.sources)
        lines = [f"**{spec.title}** (`{name}`). {spec.description}", f"Sources: {cited}."]
        if spec.reverse_engineered:
            lines.append("Known only from public reverse engineering: " + " ".join(spec.reverse_engineered))
        st.markdown("  \n".join(lines))
    st.caption("Every strategy, its parameters and how the replay models it: docs/strategies.md, or "
               "`python -m compaction strategies` on the command line.")

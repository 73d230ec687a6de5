"""The Tune page's sections around its sweep: the measure, the sweep drawn as it fills, the unit of the
axes, the heatmap and what it means, how the cells' cost stands against the agent's own setting replayed, where a
setting makes no difference and why, the trade-off chart, the boxes that name a cell (they follow a
click), and the agent's own regime in one press for a log that recorded usage."""

from collections.abc import Callable, Iterator

import streamlit as st

from compaction.agents import agent_of
from compaction.errors import SettingsError
from compaction.measures import MEASURES
from compaction.strategies import Regime, lookup, regime_params
from compaction.sweep import SweepResult
from dashboard.render import timeline, tune_axes
from dashboard.render.agent_regime import regime_sentence
from dashboard.render.time_charts import sweep_heatmap
from dashboard.render.tradeoff_chart import tradeoff_figure
from dashboard.render.tune_notes import (
    Label,
    OwnSetting,
    cost_against_log,
    irrelevance_notes,
    layers_below,
    value_label,
)
from dashboard.ui import state, tuning
from dashboard.ui.tuning import Axis

UNIT_KEY = "tune_unit"
UNIT_TITLES = {tune_axes.TOKENS: "tokens (calibrated on this log)", tune_axes.CHARS: "characters"}


def measure_box() -> str:
    column, _ = st.columns([2, 1])
    return column.selectbox("Measure", list(timeline.TUNE_MEASURES), key="tune_measure",
                            format_func=timeline.TUNE_MEASURES.get,
                            help="Cost: the session's calls priced as the log says (or at your prices), prompt "
                                 "caching included. Blind references: names a response used that its call no "
                                 "longer sent. Artifacts: files, errors and constraints still sent at the end. "
                                 "Read from the cache: the share of input tokens. Peak context: the largest "
                                 "single call.")


def streamed(sweeps: Iterator[SweepResult], cells: int, draw: Callable[[SweepResult], object], place
             ) -> SweepResult | None:
    """Run a sweep, drawing `draw(result)` in `place` as its cells come; the whole result, or None (the
    problem shown) when its values cannot be."""
    bar = st.progress(0.0, text=f"Replaying the session for {cells:,} settings…")
    result = None
    try:
        for result in sweeps:
            if result.cells_done < result.cell_count:
                place.plotly_chart(draw(result), width="stretch", config={"displayModeBar": False})
                bar.progress(result.cells_done / cells, text=f"Replayed {result.cells_done:,} of {cells:,}…")
    except SettingsError as error:
        bar.empty()
        st.error(str(error))
        return None
    bar.empty()
    return result


def paid_by_agent() -> float | None:
    """What the log's own calls cost (its recorded usage, at the prices in force), None when it records none."""
    recorded = state.history().recorded
    if not any(isinstance(usage, dict) for usage in recorded.usage) and not recorded.totals:
        return None
    return state.strategy_replay("as-recorded", {}).totals["recorded_cost_usd"]


def own_setting() -> OwnSetting | None:
    """The agent's own current setting replayed on the same calls (its own preset at the values it runs at;
    the log's own compactions replayed for an agent without one), with what its log records; None for a log
    of no known agent or that records no cost."""
    paid = paid_by_agent()
    agent = agent_of(state.loaded().conversation.format)
    if agent is None and paid is None:
        return None
    history = state.history()
    if agent is not None and agent.own_preset:
        spec = lookup(agent.own_preset)
        params = regime_params(spec, Regime.of(history, state.model_window()))
        replayed = state.strategy_replay(spec.name, params)
        shown = ", ".join(f"{key} {value:,}" for key, value in params.items())
        words = f"{agent.title}'s own setting" + (f" ({shown})" if shown else "")
    else:
        replayed = state.strategy_replay("as-recorded", {})
        words = "the log's own compactions"
    totals = replayed.totals
    over = sum(call.measures.cost_usd for call in replayed.calls if call.measures is not None and call.measures.recorded)
    return OwnSetting(totals["cost_usd"], words, paid, totals["recorded_calls"], totals["calls"], over)


def against_paid(result: SweepResult, label: Label = value_label, name: Callable[[str], str] = str) -> None:
    sentence = cost_against_log(result, own_setting(), label, name)
    if sentence:
        st.info(sentence, icon=":material/payments:")


def axes_unit(history) -> str:
    """Tokens by default for a log with usage (the agent's regime), characters otherwise."""
    if history.calibration is None:
        return tune_axes.CHARS
    units = list(UNIT_TITLES)
    return st.radio("Sizes on the axes", units, format_func=UNIT_TITLES.get, key=UNIT_KEY, horizontal=True,
                    help="Tokens: CONTEXT_LIMIT counted as a call sends it (with the system prompt and tools, the "
                         "overhead), the other sizes as one tool output's tokens, through the token model calibrated "
                         "on this log; the sidebar's sliders stay in characters.")


def calls(history) -> int:
    return sum(1 for message in history.messages if message.get("role") == "assistant")


def axis_title(axis: Axis) -> str:
    name = tuning.setting_name(axis.name)
    return f"{name} ({axis.unit})" if axis.unit else name


def heatmap_figure(result: SweepResult, measure: str, x: Axis, y: Axis, current):
    """The heatmap of `measure`, also of a grid still filling (its cells not yet done are blank)."""
    return sweep_heatmap(result, measure, timeline.TUNE_MEASURES[measure], current, x_labels=x.labels,
                         y_labels=y.labels, x_title=axis_title(x), y_title=axis_title(y))


def heatmap(result: SweepResult, measure: str, x: Axis, y: Axis, current, place) -> None:
    """The whole grid's heatmap in `place` (where it was drawn as it filled), clickable, and what it means."""
    place.plotly_chart(heatmap_figure(result, measure, x, y, current), width="stretch", key=tuning.HEATMAP_KEY,
                       on_select=tuning.apply_clicked_cell, selection_mode="points", config={"displayModeBar": False})
    settings = state.settings()
    sidebar = ", ".join(f"{tuning.setting_name(axis.name)} {getattr(settings, axis.name):,}"
                        + (" characters" if axis.name in tune_axes.SIZE_SETTINGS else "") for axis in (x, y))
    where = ("The black square marks the sidebar's settings." if current is not None else
             f"The sidebar's settings ({sidebar}) are not on this grid.")
    st.caption(f"{where} Colour: {MEASURES[measure].darker}; each measure is one side of a trade-off (see below). "
               f"'–' means the session has nothing to measure there. {how_computed(result, calls(state.history()))}")


def why_flat(result: SweepResult, history, x: Axis, y: Axis, unit: str) -> None:
    axes = {x.name: x, y.name: y}
    notes = irrelevance_notes(result, history, lambda field, value: axes[field].phrase(value), tuning.setting_name,
                              unit == tune_axes.TOKENS)
    if notes:
        st.info("**Where a setting makes no difference, and why:**\n" + "\n".join(f"- {note}" for note in notes),
                icon=":material/horizontal_rule:")


def how_computed(result: SweepResult, call_count: int) -> str:
    """How the cells were computed: how many by the columnar kernel, how many by the loop and why."""
    cells, looped = result.cell_count, len(result.left_to_loop)
    what = "pairs" if result.y_name is not None else "settings"
    kernel = f"the figures of their replays of all {call_count:,} calls, without replaying"
    if not looped:
        return f"All {cells:,} {what} computed by the columnar kernel: {kernel}."
    why = "; ".join(sorted(set(result.left_to_loop.values())))
    replays = (f" in {result.replays:,} replays (the other cells had the same outcome as one of them)"
               if result.replays < looped else "")
    done = f"{result.by_kernel:,} of {cells:,} {what} computed by the columnar kernel ({kernel}); the loop " \
        if result.by_kernel else "The loop "
    return f"{done}replayed all {call_count:,} calls for {looped:,}{replays}: {why}."


def trade_off(result: SweepResult, cell, key: str = tuning.TRADE_OFF_KEY,
              on_select: Callable[[], None] = tuning.apply_clicked_point, label: Label = value_label,
              current: tuple[str, str] = ("current settings", "the sidebar's current settings")) -> None:
    st.subheader("Cost against what the model loses")
    loss_col, _ = st.columns([1, 1])
    loss = loss_col.selectbox("Loss to weigh against the cost", ("blind_references", "artifact_retention"),
                              key="tune_loss", format_func=timeline.TUNE_MEASURES.get)
    st.plotly_chart(tradeoff_figure(result, "cost_usd", loss, cell, label, *current), width="stretch", key=key,
                    on_select=on_select, selection_mode="points", config={"displayModeBar": False})
    front = result.trade_off_front("cost_usd", loss)
    cells = [(r, c) for r in range(result.rows) for c in range(len(result.x_values))]
    what = "pair of settings" if result.y_name is not None else "setting"
    st.caption(f"Each point is one {what}; those with the same outcome lie on one point "
               f"({_points(result, cells, loss)} for {len(cells):,} here). The dark points, joined by the "
               f"line, are the {len(front):,} ({_points(result, front, loss)}) that no other beats on both "
               "cost and loss: cheaper ones lose more, and the others cost more or lose more for nothing. Click a "
               "point to use its settings.")


def _points(result: SweepResult, cells, loss: str) -> str:
    """How many points the trade-off chart draws for `cells`: one per distinct (cost, loss)."""
    outcomes = {(result.cells[r][c]["cost_usd"], result.cells[r][c][loss]) for r, c in cells}
    count = sum(1 for outcome in outcomes if None not in outcome)
    return f"{count:,} point{'s' if count != 1 else ''}"


def pick_boxes(x: Axis, y: Axis, current) -> None:
    """Two boxes naming a cell, and Apply: the same as clicking it. They follow the sidebar's cell."""
    tuning.follow_current(current, len(x.values), len(y.values))
    st.markdown("**Use a cell's settings** (the same as clicking it):")
    pick_x, pick_y, pick_button = st.columns(3, vertical_alignment="bottom")
    pick_x.selectbox(axis_title(x), range(len(x.values)), format_func=lambda i: x.labels[i], key=tuning.PICK_X)
    pick_y.selectbox(axis_title(y), range(len(y.values)), format_func=lambda i: y.labels[i], key=tuning.PICK_Y)
    pick_button.button("Apply to the sidebar", on_click=tuning.apply_picked, key="tune_apply",
                       icon=":material/check:", type="primary")


def agent_regime(history) -> None:
    """For a log that compacted itself: the settings under which the pipeline behaves as the agent did."""
    found = state.agent_regime()
    if found.point is None:
        return
    values = found.values
    still = layers_below(history, state.settings().replace(**values))
    st.markdown("**The agent's own regime.** " + regime_sentence(found, "It")
                + (f" Still acting at these settings: {', '.join(still)}." if still else ""))
    st.button("Use the agent's regime in the sidebar", on_click=state.apply_settings, args=(values,),
              key="tune_agent_regime", icon=":material/history:")

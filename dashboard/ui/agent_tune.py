"""Tune for the log's own agent: a sweep of its own preset's knobs (the Agent's `knobs`), a line for one knob
and a heatmap for two, in the agent's units and around its own default (compaction's Knob and Regime); a
click on a point or cell picks it, and the export under the chart writes its settings in the agent's own
form (config.toml, environment lines, settings.json)."""

import hashlib
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compaction.agents import Agent, agent_of
from compaction.errors import SettingsError
from compaction.strategies import Knob, Regime, StrategySpec, build, lookup, regime_params
from compaction.sweep import SweepResult
from dashboard.render import timeline
from dashboard.render.sweep_line import sweep_line_figure
from dashboard.render.time_charts import cell_text, sweep_heatmap
from dashboard.render.timeline import cell_from_selection
from dashboard.render.tune_notes import cell_words, knob_notes, value_label
from dashboard.ui import export_panel, state, sweep_state, tune_view

CHART_KEY, TRADE_OFF_KEY, WHAT_KEY = "tune_agent_chart", "tune_agent_trade_off", "tune_what"
PIPELINE = "pipeline"
_GRID = "_tune_agent_grid"  # the grid on show: (its signature, rows, columns), for the click callbacks
_PICKED = "_tune_agent_picked"  # grid signature -> the (row, column) picked on it


@dataclass(frozen=True)
class KnobAxis:
    knob: Knob
    values: tuple[Any, ...] | None  # None: the text typed is not a list of valid values (the problem is shown)
    default: Any  # the agent's own value at this log's regime

    def label(self, value: Any) -> str:
        return value_label(self.knob.param, value)


def tuned_agent(format: str | None) -> Agent | None:
    """The log's agent when Tune can sweep its own knobs."""
    found = agent_of(format)
    return found if found is not None and found.own_preset and found.knobs else None


def chosen(agent: Agent) -> bool:
    """Whether the person tunes the agent's own knobs (the default) rather than the tutorial pipeline."""
    names = ", ".join(knob.param for knob in agent.knobs)
    choice = st.radio("What to tune", (agent.own_preset, PIPELINE), key=f"{WHAT_KEY}_{agent.name}", horizontal=True,
                      format_func=lambda name: f"{agent.title}'s own settings ({names})" if name != PIPELINE
                      else "the tutorial pipeline's settings (the sidebar's)")
    return choice != PIPELINE


def _inputs(agent: Agent, spec: StrategySpec, regime: Regime) -> list[KnobAxis]:
    """One box of values per knob, its defaults from the log's regime; kept per file and window."""
    where = hashlib.sha256(f"{state.loaded().key}:{regime.window_tokens}".encode()).hexdigest()[:10]
    axes = []
    for column, knob in zip(st.columns(len(agent.knobs)), agent.knobs, strict=True):
        param = spec.param(knob.param)
        text = column.text_input(f"{knob.param} values" + (f" ({param.unit})" if param.unit else ""),
                                 ", ".join(str(value) for value in knob.values(regime)),
                                 key=f"tune_agent_{where}_{knob.param}",
                                 help=f"{knob.words[0].upper()}{knob.words[1:]}: {param.help} {param.describe()}, "
                                      "separated by commas.")
        try:
            values = tuple(sorted({param.parse(part, spec.name) for part in text.replace(",", " ").split()}))
            if not values:
                raise SettingsError(f"{knob.param}: give at least one value")
        except SettingsError as error:
            column.error(str(error))
            values = None
        axes.append(KnobAxis(knob, values, knob.default(regime)))
    return axes


def _signature(axes: list[KnobAxis]) -> tuple:
    return (state.loaded().key, state.model_window(), *((axis.knob.param, axis.values) for axis in axes))


def _picked(axes: list[KnobAxis]) -> tuple[int, int]:
    """The point picked on this grid, else the agent's own setting, else the first."""
    found = st.session_state.get(_PICKED, {}).get(_signature(axes))
    if found is not None:
        return found
    own = [axis.values.index(axis.default) if axis.values and axis.default in axis.values else 0 for axis in axes]
    return (own[1] if len(own) > 1 else 0), own[0]


def _pick(key: str) -> None:
    """On a click on the chart or the trade-off: the clicked point's cell is the one exported."""
    cell, grid = cell_from_selection(st.session_state.get(key)), st.session_state.get(_GRID)
    if cell is not None and grid is not None and 0 <= cell[0] < grid[1] and 0 <= cell[1] < grid[2]:
        st.session_state.setdefault(_PICKED, {})[grid[0]] = cell


def _pick_on_chart() -> None:
    _pick(CHART_KEY)


def _pick_on_trade_off() -> None:
    _pick(TRADE_OFF_KEY)


def _figure(result: SweepResult, measure: str, axes: list[KnobAxis], picked, agent: Agent, paid: float | None):
    x = axes[0]
    labels = [x.label(value) for value in result.x_values]
    if result.y_name is None:
        default = result.x_values.index(x.default) if x.default in result.x_values else None
        return sweep_line_figure(result, measure, labels, x.knob.param, picked[1] if picked else None, default,
                                 f"{agent.title}'s own setting", paid)
    y = axes[1]
    return sweep_heatmap(result, measure, timeline.TUNE_MEASURES[measure], picked, x_labels=labels,
                         y_labels=[y.label(value) for value in result.y_values], x_title=x.knob.param,
                         y_title=y.knob.param, current_name="exported below",
                         current_words="the settings exported below")


def show(agent: Agent, history) -> None:
    spec = lookup(agent.own_preset or "")
    regime = Regime.of(history, state.model_window())
    words = " and ".join(knob.words for knob in agent.knobs)
    st.caption(f"Which settings suit this session, in {agent.title}'s own terms? Each point replays the whole "
               f"session with {spec.title} at other values of {words}: from compacting early up to its own "
               f"default, in its units. Click a point to take its settings to {agent.title} (below).")
    axes = _inputs(agent, spec, regime)
    measure = tune_view.measure_box()
    checked = [(axis.knob.param, axis.values) for axis in axes if axis.values is not None]
    if len(checked) < len(axes):
        st.stop()
    x, y = checked[0], checked[1] if len(checked) > 1 else None
    strategy = build(spec.name, regime_params(spec, regime))
    picked, paid = _picked(axes), tune_view.paid_by_agent()
    st.subheader(timeline.TUNE_MEASURES[measure])
    place = st.empty()
    cells = len(x[1]) * (len(y[1]) if y else 1)
    result = tune_view.streamed(sweep_state.sweep_stream(x, y, strategy), cells,
                                lambda filling: _figure(filling, measure, axes, None, agent, paid), place)
    if result is None:
        st.stop()
    st.session_state[_GRID] = (_signature(axes), result.rows, len(result.x_values))
    place.plotly_chart(_figure(result, measure, axes, picked, agent, paid), width="stretch", key=CHART_KEY,
                       on_select=_pick_on_chart, selection_mode="points", config={"displayModeBar": False})
    st.caption(tune_view.how_computed(result, tune_view.calls(history)))
    label = {axis.knob.param: axis for axis in axes}
    tune_view.against_paid(result, lambda name, value: label[name].label(value))
    notes = knob_notes(result, lambda name, value: label[name].label(value), agent.title)
    if notes:
        st.info("**Where a setting makes no difference, and why:**\n" + "\n".join(f"- {note}" for note in notes),
                icon=":material/horizontal_rule:")
    _export(result, picked, spec, agent, lambda name, value: label[name].label(value))
    tune_view.trade_off(result, picked, TRADE_OFF_KEY, _pick_on_trade_off,
                        lambda name, value: label[name].label(value), ("exported above", "the settings exported above"))


def _export(result: SweepResult, picked: tuple[int, int], spec: StrategySpec, agent: Agent, label) -> None:
    row, column = picked
    cost = cell_text(result.cells[row][column]["cost_usd"], "cost_usd")
    own_words = {knob.param: knob.words for knob in agent.knobs}
    in_its_terms = cell_words(result, row, column, label, lambda param: own_words.get(param, param))
    st.markdown(f"**Take it to {agent.title}:** {cell_words(result, row, column, label)} (a cost of {cost} with "
                f"prompt caching on this session). In {agent.title}'s own terms: {in_its_terms}. Click another "
                "point to export its settings.")
    export_panel.show({spec.name: result.params_at(row, column)}, key="tune_agent", expanded=True)

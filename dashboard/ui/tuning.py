"""The Tune page's link to the sidebar: which sweep is on show, and putting one of its cells' settings
into the sliders. Called from widget callbacks, which run before the sidebar is drawn, the only time
a slider's value may be set (see state.apply_settings). The axes' inputs (in characters, or in tokens
for a log with usage: tune_axes.py) are here too, shared with the Sessions page's sweep."""

import hashlib
from dataclasses import dataclass

import streamlit as st

from compaction.model import Settings
from compaction.sweep import SweepResult
from dashboard.render import tune_axes
from dashboard.render.setting_words import SETTING_WORDS
from dashboard.render.timeline import cell_from_selection, format_values, parse_values
from dashboard.ui import state

HEATMAP_KEY = "tune_heatmap"
TRADE_OFF_KEY = "tune_trade_off"
PICK_X, PICK_Y = "tune_pick_x", "tune_pick_y"
_GRID = "_tune_grid"  # (x name, x values, y name, y values) of the heatmap on show
_PICKED = "_tune_picked"  # the cell the boxes were last set to follow


def show_grid(result: SweepResult) -> None:
    """Remember the axes of the heatmap drawn in this run, for the click callback of the next."""
    st.session_state[_GRID] = (result.x_name, tuple(result.x_values), result.y_name, tuple(result.y_values))


def apply_cell(row: int, column: int) -> None:
    """Callback: the settings of cell (row, column) of the heatmap on show go into the sidebar, and the
    boxes below the heatmap follow (else pressing Apply would put their older values back)."""
    grid = st.session_state.get(_GRID)
    if grid is None:
        return
    x_name, x_values, y_name, y_values = grid
    if 0 <= row < len(y_values) and 0 <= column < len(x_values):
        state.apply_settings({x_name: x_values[column], y_name: y_values[row]})
        st.session_state[PICK_X], st.session_state[PICK_Y] = column, row
        st.session_state[_PICKED] = (row, column)


def apply_clicked_cell(key: str = HEATMAP_KEY) -> None:
    """on_select callback of the heatmap: apply the clicked cell."""
    cell = cell_from_selection(st.session_state.get(key))
    if cell is not None:
        apply_cell(*cell)


def apply_clicked_point() -> None:
    """on_select callback of the trade-off chart: apply the clicked point's cell."""
    apply_clicked_cell(TRADE_OFF_KEY)


def apply_picked() -> None:
    """The Apply button's callback: the cell the two boxes name."""
    apply_cell(st.session_state.get(PICK_Y, 0), st.session_state.get(PICK_X, 0))


def follow_current(current: tuple[int, int] | None, columns: int, rows: int) -> None:
    """Before the boxes are drawn: when the sidebar's cell changed (a click, a slider), the boxes show it."""
    if current is None or current == st.session_state.get(_PICKED):
        return
    row, column = current
    if row < rows and column < columns:
        st.session_state[PICK_X], st.session_state[PICK_Y] = column, row
        st.session_state[_PICKED] = current


def current_cell(result: SweepResult, settings: Settings) -> tuple[int, int] | None:
    """(row, column) of the sidebar's settings in the grid, None when they are not on it."""
    x_value, y_value = getattr(settings, result.x_name), getattr(settings, result.y_name)
    if x_value in result.x_values and y_value in result.y_values:
        return result.y_values.index(y_value), result.x_values.index(x_value)
    return None


def values_input(column, spec: state.SliderSpec, default: tuple[int, ...], prefix: str) -> tuple[int, ...] | None:
    """A text box of values for one setting's axis (keyed per setting, so each keeps its own list);
    None, with the problem shown, when the text is not a list of values in the slider's range."""
    text = column.text_input(f"{spec.key} values", format_values(default), key=f"{prefix}_{spec.field}",
                             help=f"Whole numbers from {spec.minimum:,} to {spec.maximum:,}, separated by commas.")
    try:
        return parse_values(text, spec.minimum, spec.maximum)
    except ValueError as error:
        column.error(f"{spec.key}: {error}")
        return None


def setting_name(field: str) -> str:
    """The tutorial's name only, as the sidebar writes it: the boxes are narrow (the plain words are in
    the help and the sidebar)."""
    return SETTING_WORDS[field].name


def setting_help() -> str:
    return " ".join(f"{setting_name(field)}: {SETTING_WORDS[field].plain.lower()}." for field in
                    (spec.field for spec in state.SLIDERS))


def axes_inputs(x_col, y_col, prefix: str, defaults: dict[str, tuple[int, ...]]) -> tuple:
    """The two settings of a sweep and their values: (x name, x values, y name, y values); a values
    entry is None when its text is not valid (the problem is shown under it)."""
    specs = {spec.field: spec for spec in state.SLIDERS}
    fields = list(specs)
    x_name = x_col.selectbox("Across (columns)", fields, index=fields.index("context_limit"), key=f"{prefix}_x",
                             format_func=setting_name, help=setting_help())
    y_name = y_col.selectbox("Down (rows)", fields, index=fields.index("keep_recent"), key=f"{prefix}_y",
                             format_func=setting_name, help=setting_help())
    return (x_name, values_input(x_col, specs[x_name], defaults[x_name], f"{prefix}_values"),
            y_name, values_input(y_col, specs[y_name], defaults[y_name], f"{prefix}_values"))


@dataclass(frozen=True)
class Axis:
    name: str  # Settings field
    values: tuple[int, ...] | None  # what the sweep takes (characters for sizes); None: the text is not valid
    labels: tuple[str, ...] = ()  # each value as typed (tokens for sizes in the agent's regime)
    unit: str = ""  # the unit the values are typed in

    def label(self, value: int) -> str:
        return self.labels[self.values.index(value)] if self.values and value in self.values else f"{value:,}"

    def phrase(self, value: int) -> str:
        """A value in a sentence: '40,000 tokens', '50,000 characters', '50'."""
        unit = self.unit.split(",")[0]
        return f"{self.label(value)} {unit}" if unit else self.label(value)


def _token_values(column, spec: state.SliderSpec, default: tuple[int, ...], key: str,
                  convert: tune_axes.Converter) -> Axis:
    field = spec.field
    low, high = convert.tokens(field, spec.minimum), convert.tokens(field, spec.maximum)
    unit = tune_axes.unit_words(field, tune_axes.TOKENS)
    text = column.text_input(f"{spec.key} values ({unit})", format_values(default), key=key,
                             help=f"Whole numbers from {low:,} to {high:,} {unit}, separated by commas; converted to "
                                  "characters through the token model calibrated on this log, to the nearest 100.")
    try:
        typed = parse_values(text, low, high)
    except ValueError as error:
        column.error(f"{spec.key}: {error}")
        return Axis(field, None, unit=unit)
    chars: dict[int, int] = {}
    for value in typed:  # two token values may round to the same characters: the first one names it
        chars.setdefault(min(max(convert.chars(field, value), spec.minimum), spec.maximum), value)
    return Axis(field, tuple(chars), tuple(f"{value:,}" for value in chars.values()), unit)


def tune_axes_inputs(x_col, y_col, unit: str, history, window: int) -> tuple[Axis, Axis]:
    """Tune's two axes. In tokens (a log with usage), sizes are typed in tokens and the defaults span the
    agent's regime (tune_axes.default_token_axes); the settings, their lists and the two choices are
    kept apart per unit and per conversation, so each keeps its own."""
    from dashboard.render.timeline import DEFAULT_AXES

    if unit != tune_axes.TOKENS:
        x_name, x_values, y_name, y_values = axes_inputs(x_col, y_col, "tune", DEFAULT_AXES)
        return (Axis(x_name, x_values, tuple(f"{v:,}" for v in x_values or ()), tune_axes.unit_words(x_name, unit)),
                Axis(y_name, y_values, tuple(f"{v:,}" for v in y_values or ()), tune_axes.unit_words(y_name, unit)))
    specs = {spec.field: spec for spec in state.SLIDERS}
    fields = list(specs)
    regime = hashlib.sha256(f"{state.loaded().key}:{window}".encode()).hexdigest()[:10]
    x_name = x_col.selectbox("Across (columns)", fields, index=fields.index("context_limit"), key="tune_x_tokens",
                             format_func=setting_name, help=setting_help())
    y_name = y_col.selectbox("Down (rows)", fields, index=fields.index("max_messages"), key="tune_y_tokens",
                             format_func=setting_name, help=setting_help())
    defaults = tune_axes.default_token_axes(history, window)
    convert = tune_axes.converter(history)
    axes = []
    for column, name in ((x_col, x_name), (y_col, y_name)):
        spec = specs[name]
        if name in tune_axes.SIZE_SETTINGS:
            axes.append(_token_values(column, spec, defaults[name], f"tune_tokens_{regime}_{name}", convert))
        else:
            values = values_input(column, spec, defaults[name], f"tune_tokens_{regime}_values")
            axes.append(Axis(name, values, tuple(f"{v:,}" for v in values or ())))
    return axes[0], axes[1]

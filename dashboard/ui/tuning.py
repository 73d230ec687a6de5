"""The Tune page's link to the sidebar: which sweep is on show, and putting one of its cells' settings
into the sliders. Called from widget callbacks, which run before the sidebar is drawn, the only time
a slider's value may be set (see state.apply_settings)."""

import streamlit as st

from compaction.model.settings import Settings
from compaction.replay.sweep import SweepResult
from dashboard.render.setting_words import SETTING_WORDS
from dashboard.render.timeline import cell_from_selection, format_values, parse_values
from dashboard.ui import state

HEATMAP_KEY = "tune_heatmap"
TRADE_OFF_KEY = "tune_trade_off"
_GRID = "_tune_grid"  # (x name, x values, y name, y values) of the heatmap on show


def show_grid(result: SweepResult) -> None:
    """Remember the axes of the heatmap drawn in this run, for the click callback of the next."""
    st.session_state[_GRID] = (result.x_name, tuple(result.x_values), result.y_name, tuple(result.y_values))


def apply_cell(row: int, column: int) -> None:
    """Callback: the settings of cell (row, column) of the heatmap on show go into the sidebar."""
    grid = st.session_state.get(_GRID)
    if grid is None:
        return
    x_name, x_values, y_name, y_values = grid
    if 0 <= row < len(y_values) and 0 <= column < len(x_values):
        state.apply_settings({x_name: x_values[column], y_name: y_values[row]})


def apply_clicked_cell(key: str = HEATMAP_KEY) -> None:
    """on_select callback of the heatmap: apply the clicked cell."""
    cell = cell_from_selection(st.session_state.get(key))
    if cell is not None:
        apply_cell(*cell)


def apply_clicked_point() -> None:
    """on_select callback of the trade-off chart: apply the clicked point's cell."""
    apply_clicked_cell(TRADE_OFF_KEY)


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
    """The tutorial's name first: the boxes are narrow, and the values and the axes use the name."""
    spec = next(spec for spec in state.SLIDERS if spec.field == field)
    return f"{spec.key}: {SETTING_WORDS[field].plain.lower()}"


def axes_inputs(x_col, y_col, prefix: str, defaults: dict[str, tuple[int, ...]]) -> tuple:
    """The two settings of a sweep and their values: (x name, x values, y name, y values); a values
    entry is None when its text is not valid (the problem is shown under it)."""
    specs = {spec.field: spec for spec in state.SLIDERS}
    fields = list(specs)
    x_name = x_col.selectbox("Across (columns)", fields, index=fields.index("context_limit"), key=f"{prefix}_x",
                             format_func=setting_name)
    y_name = y_col.selectbox("Down (rows)", fields, index=fields.index("keep_recent"), key=f"{prefix}_y",
                             format_func=setting_name)
    return (x_name, values_input(x_col, specs[x_name], defaults[x_name], f"{prefix}_values"),
            y_name, values_input(y_col, specs[y_name], defaults[y_name], f"{prefix}_values"))

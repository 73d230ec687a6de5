"""Small pieces of UI shared by several pages: a paged text viewer and a message viewer."""

import math
from collections.abc import Callable

import streamlit as st

from compaction.model import History
from dashboard.render.grid_widths import column_px, shown
from dashboard.render.text import message_full_text
from dashboard.render.units import describe

PAGE_CHARS = 20_000
SHORT_TEXT = 1_500  # shorter texts get a box that fits them; longer ones a fixed-height scrolling box


def page_count(total: int, page_size: int = PAGE_CHARS) -> int:
    return max(1, math.ceil(total / page_size))


def paged_text(total: int, read: Callable[[int, int], str], key: str, unit_name: str = "characters",
               page_size: int = PAGE_CHARS, height: int = 420) -> None:
    """Show `total` units of text one page at a time; `read(start, length)` fetches a page."""
    pages = page_count(total, page_size)
    page = 1
    if pages > 1:
        page = st.number_input(f"Page (of {pages:,}, {page_size:,} {unit_name} each)", 1, pages, 1, key=key)
    start = (page - 1) * page_size
    st.code(read(start, page_size) or " ", language=None, wrap_lines=True,
            height=height if total > SHORT_TEXT else "content")
    if pages > 1:
        st.caption(f"{unit_name.capitalize()} {start:,}–{min(start + page_size, total):,} of {total:,}.")


def message_viewer(history: History, index: int, unit: str, key: str, number: int | None = None) -> None:
    """The full text of one message (at position `index`): text, tool calls with their input, tool results
    with their output. `number`: its number in the loaded conversation, when that is not its position."""
    message = history.messages[index]
    st.markdown(f"**Message {index if number is None else number}** · {message.get('role', '?')} · "
                f"{describe(history.sizes[index], unit, history.token_model)}")
    text = message_full_text(message, history.tool_name)
    paged_text(len(text), lambda start, length: text[start:start + length], key=f"{key}_page")


def selected_row(event) -> int | None:
    """The position of the row selected in a st.dataframe with on_select, if any."""
    rows = getattr(getattr(event, "selection", None), "rows", None) or []
    return rows[0] if rows else None


def whole_columns(frame, config: dict | None = None, kinds: dict[str, str] | None = None) -> dict:
    """`config` (st.dataframe's column_config) with every column as wide as its widest value and its title
    (grid_widths): left to itself the grid cuts a tool name to "exec_con…". A progress bar keeps its width."""
    fitted = dict(config or {})
    for title in frame.columns:
        column = fitted.get(title)
        column = dict(column) if isinstance(column, dict) else st.column_config.Column(column if isinstance(column, str)
                                                                                         else None)
        if (column.get("type_config") or {}).get("type") == "progress":
            continue
        kind = (kinds or {}).get(title, "text")
        column["width"] = column_px(column.get("label") or str(title), {shown(value, kind) for value in frame[title]})
        fitted[title] = column
    return fitted


def column_picker(frame, shown_first: list[str], key: str) -> list[str]:
    """A 'Columns' popover of checkboxes, one per column of `frame` (those of `shown_first` ticked at first):
    the columns a wide table shows."""
    with st.popover(f"Columns ({len(frame.columns):,})", icon=":material/view_column:"):
        st.caption("The table starts with who each session is, what it cost and what compaction does; tick any "
                   "other column to add it.")
        places = st.columns(3)
        return [title for number, title in enumerate(frame.columns)
                if places[number % 3].checkbox(str(title), value=title in shown_first, key=f"{key}_{title}")]

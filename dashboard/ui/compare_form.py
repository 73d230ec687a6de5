"""The Compare page's controls: which strategies, and each one's parameters (its documented defaults
filled in). Every control is in the URL, so the address bar is a deep link to the comparison:
`?compare=pipeline&compare=hybrid&hybrid.mask_window=5` (defaults are left out). The strategies are listed
by title; the address keeps their stable names. Every control belongs to the loaded file (per_file.py)."""

import streamlit as st

from compaction.agents import agent_of
from compaction.strategies import REGISTRY, Param

CHOICE_KEY = "compare"
BOLD_KEY = "compare_bold"  # the chart's lines drawn thick
KEPT_KEY = "_compare_choice"  # the choice, while the page is not on show
PEERS = ("anthropic-clear-tool-uses", "langchain-summarization")  # the generic what-ifs shown from the start


def own_preset(format: str | None) -> str | None:
    """The preset that replays the rule of the agent whose log a `format` file is, if it has one."""
    agent = agent_of(format)
    return agent.own_preset if agent is not None else None


def default_choice(format: str | None) -> list[str]:
    """What the agent really did first, its own preset (for a log of an agent that has one), the tutorial's
    pipeline, then the peers. (The tables add the log's own cost and no compaction above them.)"""
    own = own_preset(format)
    return ["as-recorded", *([own] if own else []), "pipeline", *PEERS]


def param_key(name: str, param: str) -> str:
    """The widget key and URL query parameter of one parameter of one strategy."""
    return f"{name}.{param}"


def is_compare_key(key: str) -> bool:
    """Whether a session key is one of Compare's controls (the choice, a strategy's parameter)."""
    return key in (CHOICE_KEY, BOLD_KEY, KEPT_KEY) or key.partition(".")[0] in REGISTRY


def title(name: str) -> str:
    return REGISTRY[name].label


def choose(format: str | None) -> list[str]:
    """The strategies to replay; `format`: the loaded conversation's, whose agent's preset is offered first.

    Not bound to the URL by Streamlit, which would write the titles there: the address keeps the stable
    names (those of the command line's --strategy), read once when the page opens and written on change."""
    default = default_choice(format)
    if KEPT_KEY not in st.session_state:  # the page opens: from its address, else the file's defaults
        st.session_state[KEPT_KEY] = [name for name in st.query_params.get_all(CHOICE_KEY) if name in REGISTRY] \
            or default
    # the choice is kept apart from the widget, whose state ends when another page is on show
    st.session_state[CHOICE_KEY] = st.session_state[KEPT_KEY]
    chosen = st.multiselect(
        "Strategies", list(REGISTRY), key=CHOICE_KEY, format_func=title, on_change=_keep,
        placeholder="Pick the systems to compare",
        help="Each one is replayed over the whole loaded session with its own parameters (the buttons below); "
             "every strategy, in one line each, is listed under 'Every strategy'.")
    if chosen == default:
        st.query_params.pop(CHOICE_KEY, None)
    elif st.query_params.get_all(CHOICE_KEY) != chosen:
        st.query_params[CHOICE_KEY] = chosen
    return chosen


def _keep() -> None:
    st.session_state[KEPT_KEY] = st.session_state[CHOICE_KEY]


def changed(name: str, values: dict) -> dict:
    """The parameters of strategy `name` set to something other than their documented defaults."""
    defaults = REGISTRY[name].defaults()
    return {param: value for param, value in values.items() if param in defaults and value != defaults[param]}


def changed_words(values: dict) -> str:
    """'trigger 1,000' and the like, for a row and a popover."""
    def shown(value) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, int):
            return f"{value:,}"
        if isinstance(value, float):
            return f"{value:g}"
        return ", ".join(value) if isinstance(value, tuple) else repr(value)

    return ", ".join(f"{param} {shown(value)}" for param, value in values.items())


def parameter_form(name: str) -> dict:
    """The parameters of one strategy, as the widgets now say."""
    return {param.name: _widget(name, param) for param in REGISTRY[name].params}


def _label(param: Param) -> str:
    return f"{param.name} ({param.unit})" if param.unit and param.kind in ("int", "float") else param.name


def _widget(name: str, param: Param):
    value = _as_value(param, _draw(param_key(name, param.name), param))
    if value != param.default:
        st.caption(f":orange[Set by you for this file] (default {_default_text(param)}).")
    return value


def _draw(key: str, param: Param):
    label, help_text = _label(param), f"{param.help} Default: {_default_text(param)}."
    if param.kind == "bool":
        return st.checkbox(label, value=param.default, key=key, help=help_text, bind="query-params")
    if param.kind == "int":
        step = 1_000 if param.default >= 10_000 else 1
        return st.number_input(label, int(param.minimum), int(param.maximum), int(param.default), step, key=key,
                               help=help_text, bind="query-params")
    if param.kind == "float":
        return st.number_input(label, float(param.minimum), float(param.maximum), float(param.default), 0.05,
                               format="%.2f", key=key, help=help_text, bind="query-params")
    if param.kind == "names":
        return st.text_input(label, ", ".join(param.default), key=key, help=help_text + " Comma-separated.",
                             bind="query-params")
    return st.text_input(label, param.default, key=key, help=help_text, bind="query-params")


def _as_value(param: Param, raw):
    """A widget's value (or its text in the address) as the strategy takes it: a list of names from a
    comma-separated text; the default for what cannot be read."""
    if raw is None:
        return param.default
    try:
        if param.kind == "bool":
            return raw if isinstance(raw, bool) else str(raw).lower() == "true"
        if param.kind == "int":
            return int(raw)
        if param.kind == "float":
            return float(raw)
    except ValueError:
        return param.default
    if param.kind == "names":
        return tuple(part.strip() for part in str(raw).split(",") if part.strip())
    return raw


def values_now(name: str) -> dict:
    """Strategy `name`'s parameters as its widgets hold them before they are drawn in this run (a changed
    value is known from the start of the run that follows the change; a link's, from the address)."""
    def raw(key: str):
        return st.session_state[key] if key in st.session_state else st.query_params.get(key)

    return {param.name: _as_value(param, raw(param_key(name, param.name))) for param in REGISTRY[name].params}


def _default_text(param: Param) -> str:
    if param.kind == "names":
        return ", ".join(param.default) or "none"
    if param.kind == "text":
        return repr(param.default) if param.default else "empty"
    if param.kind == "bool":
        return "on" if param.default else "off"
    return f"{param.default:,}" if param.kind == "int" else f"{param.default:g}"

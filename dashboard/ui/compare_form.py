"""The Compare page's controls: which strategies, and each one's parameters (its documented defaults
filled in). Every control is bound to the URL, so the address bar is a deep link to the comparison:
`?compare=pipeline&compare=hybrid&hybrid.mask_window=5` (defaults are left out)."""

import streamlit as st

from compaction.agents import agent_of
from compaction.strategies import REGISTRY, Param

CHOICE_KEY = "compare"
PEERS = ("anthropic-clear-tool-uses", "langchain-summarization")  # the generic what-ifs shown from the start


def default_choice(format: str | None) -> list[str]:
    """What the agent really did first, its own preset (for a log of an agent that has one), the tutorial's
    pipeline, then the peers."""
    agent = agent_of(format)
    own = [agent.own_preset] if agent is not None and agent.own_preset else []
    return ["as-recorded", *own, "pipeline", *PEERS]


def param_key(name: str, param: str) -> str:
    """The widget key and URL query parameter of one parameter of one strategy."""
    return f"{name}.{param}"


def choose(format: str | None) -> list[str]:
    """The strategies to replay; `format`: the loaded conversation's, whose agent's preset is offered first."""
    # the stable names, not the titles: they are what the URL and the command line carry
    return st.multiselect(
        "Strategies", list(REGISTRY), default=default_choice(format), key=CHOICE_KEY, bind="query-params",
        placeholder="Pick the systems to compare",
        help="Each one is replayed over the whole loaded session with its own parameters (the buttons below). "
             "The names are those of `python -m compaction replay --strategy NAME`.")


def parameter_form(name: str) -> dict:
    """The parameters of one strategy, as the widgets now say."""
    return {param.name: _widget(name, param) for param in REGISTRY[name].params}


def _label(param: Param) -> str:
    return f"{param.name} ({param.unit})" if param.unit and param.kind in ("int", "float") else param.name


def _widget(name: str, param: Param):
    key, label = param_key(name, param.name), _label(param)
    help_text = f"{param.help} Default: {_default_text(param)}."
    if param.kind == "bool":
        return st.checkbox(label, value=param.default, key=key, help=help_text, bind="query-params")
    if param.kind == "int":
        step = 1_000 if param.default >= 10_000 else 1
        return int(st.number_input(label, int(param.minimum), int(param.maximum), int(param.default), step, key=key,
                                   help=help_text, bind="query-params"))
    if param.kind == "float":
        return float(st.number_input(label, float(param.minimum), float(param.maximum), float(param.default), 0.05,
                                     format="%.2f", key=key, help=help_text, bind="query-params"))
    if param.kind == "names":
        text = st.text_input(label, ", ".join(param.default), key=key, help=help_text + " Comma-separated.",
                             bind="query-params")
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return st.text_input(label, param.default, key=key, help=help_text, bind="query-params")


def _default_text(param: Param) -> str:
    if param.kind == "names":
        return ", ".join(param.default) or "none"
    if param.kind == "text":
        return repr(param.default) if param.default else "empty"
    if param.kind == "bool":
        return "on" if param.default else "off"
    return f"{param.default:,}" if param.kind == "int" else f"{param.default:g}"

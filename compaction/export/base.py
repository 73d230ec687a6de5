"""What every export form shares: the form as the registry lists it, and what it writes.

A form is one agent's way of taking settings (a Python module, a request fragment, environment lines, a
config file); `render(built, settings)` writes the chosen strategy at its parameters, with the tutorial's
settings, in that form. What the agent has no setting for is said in `notes`, in plain words.
"""

from collections.abc import Callable
from dataclasses import dataclass

from compaction.model.settings import Settings
from compaction.strategies import Built


@dataclass(frozen=True)
class Exported:
    form: str
    strategy: str
    text: str  # the block to copy
    filename: str  # the name of the download
    language: str  # how to highlight it: python, json, toml, bash
    notes: tuple[str, ...] = ()  # what cannot be set there, and where the rest goes

    @property
    def mime(self) -> str:
        return {"python": "text/x-python", "json": "application/json", "toml": "application/toml"}.get(
            self.language, "text/plain")


@dataclass(frozen=True)
class Form:
    name: str  # stable: `--form`, URLs and the panel's keys use it
    title: str  # for people: "Standalone Python module"
    described: str  # one line for `--help`
    strategies: tuple[str, ...] | None  # the strategies it carries; None: every one but the log's own
    render: Callable[[Built, Settings], Exported]
    aliases: tuple[str, ...] = ()

    def fits(self, strategy: str) -> bool:
        return strategy != "as-recorded" if self.strategies is None else strategy in self.strategies


def excluded_tools(params: dict, settings: Settings) -> list[str]:
    """A clearing edit's `exclude_tools`: its own, then the tools the settings keep verbatim (model/keep.py),
    each once."""
    return list(dict.fromkeys((*params.get("exclude_tools", ()), *settings.keep_tools)))


def keep_notes(settings: Settings, carried: bool) -> list[str]:
    """What a form says of the settings' keep verbatim: the kept tools it carries (`carried`) or not, and the
    input texts, which no agent's form has a field for."""
    notes = []
    if settings.keep_tools:
        tools = ", ".join(settings.keep_tools)
        notes.append(f"Keep verbatim: the results of {tools} are in exclude_tools, never cleared." if carried else
                     f"Keep verbatim ({tools}) has no field in this form: the agent may compact those results.")
    if settings.keep_inputs:
        notes.append(f"Keep verbatim by input ({', '.join(settings.keep_inputs)}) has no field in this form: only "
                     "whole tools can be excluded.")
    return notes


def effective_settings(built: Built, settings: Settings) -> Settings:
    """The tutorial's settings with the parameters of a settings strategy given over them (the pipeline's
    context_limit=... wins over the sidebar's)."""
    if not built.spec.from_settings:
        return settings
    names = {"window": "keep_recent", "trigger": "context_limit", "keep_last": "reactive_keep_last"}
    return settings.replace(**{names.get(name, name): value for name, value in built.params.items()})

"""Settings out of the lab, in the form each agent takes them: `export(strategy, params, settings, form)`.

One module per generic form (the registry below is the table of them):
- python_module.py (`python`): the tutorial's constants and the four layers as one module, standard library
  only (the template is standalone.py; inline.py writes the lab's functions into it);
- context_management.py: the Messages API's `context_management` fragment;
- langchain_middleware.py (`langchain`): LangChain's middleware construction;
- client_source.py (`client`): the lab's compacting client, for every strategy.
Each agent's own form (its environment, config file or settings key) is registered by its package
(compaction/agents/). A form that does not carry the chosen strategy is refused by name, with the forms
that do.
"""

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from compaction.errors import SettingsError
from compaction.export import client_source, context_management, langchain_middleware, python_module
from compaction.export.base import Exported, Form
from compaction.model.settings import DEFAULTS, Settings
from compaction.strategies import Built, build

_GENERIC: tuple[Form, ...] = (
    Form("python", "Standalone Python module", "the tutorial's constants and its four layers in one module, "
         "standard library only (pipeline)", ("pipeline",), python_module.render),
    Form("context_management", "Anthropic API context_management", "the Messages API request fragment for its "
         "context editing and server compaction (anthropic-*)", context_management.STRATEGIES,
         context_management.render),
    Form("langchain", "LangChain middleware", "the construction of LangChain's SummarizationMiddleware or "
         "ContextEditingMiddleware with ClearToolUsesEdit (langchain-*)", langchain_middleware.STRATEGIES,
         langchain_middleware.render),
)
_CLIENT = Form("client", "Compaction Lab's compacting client", "the construction of compaction.client.CompactingClient "
               "(every strategy)", client_source.STRATEGIES, client_source.render)
_AGENTS: list[Form] = []  # registered by the agents' packages


def register(form: Form) -> Form:
    """Enter an agent's form; a name or alias taken twice is a programming error."""
    taken = {_key(key) for known in forms() for key in (known.name, *known.aliases)}
    if taken & {_key(key) for key in (form.name, *form.aliases)}:
        raise ValueError(f"the export form {form.name!r} is registered already")
    _AGENTS.append(form)
    return form


def forms() -> tuple[Form, ...]:
    """Every form: the generic ones, the agents' in the agents registry's order, the lab's client last."""
    return (*_GENERIC, *_AGENTS, _CLIENT)


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", "-").split())


def lookup_form(name: str) -> Form:
    wanted = _key(name)
    found = next((form for form in forms() if wanted in {_key(key) for key in (form.name, *form.aliases)}), None)
    if found is None:
        raise SettingsError(f"unknown export form {name!r}; choose one of {', '.join(f.name for f in forms())}")
    return found


def forms_for(strategy: str) -> list[Form]:
    """The forms that carry `strategy`, in the registry's order."""
    return [form for form in forms() if form.fits(strategy)]


def check_fits(form: str, strategy: str) -> Form:
    """The form, if it carries the strategy; else SettingsError naming both and the forms that do."""
    chosen = lookup_form(form)
    if chosen.fits(strategy):
        return chosen
    fitting = [f.name for f in forms_for(strategy)]
    if not fitting:
        raise SettingsError(f"the {strategy} strategy is what the log's agent did: no agent can be set to follow it, "
                            "so no form exports it")
    carries = "every strategy but the log's own" if chosen.strategies is None else ", ".join(chosen.strategies)
    raise SettingsError(f"the {chosen.name} form does not fit the strategy {strategy}: it carries {carries}; for "
                        f"{strategy} choose {', '.join(fitting)}")


def export(strategy: "str | Built", params: Mapping[str, Any] | None = None, settings: Settings | None = None,
           form: str = "client", agent_version: str | None = None) -> Exported:
    """The strategy at `params` (with the tutorial's `settings`) in `form`; SettingsError names a form that
    does not fit the strategy, and the forms that do. `agent_version`: the version of the agent that wrote
    the session tuned on, for a strategy whose `version` is `auto` (an agent whose rules change with it)."""
    built = strategy if isinstance(strategy, Built) else build(strategy, params)
    chosen = check_fits(form, built.spec.name)
    if built.params.get("version") == "auto" and agent_version:
        with suppress(SettingsError):  # a version the strategy cannot read: its `auto` rule stands
            built = build(built.spec.name, {**built.params, "version": agent_version})
    return chosen.render(built, settings or DEFAULTS)


__all__ = ["Exported", "Form", "check_fits", "export", "forms", "forms_for", "lookup_form", "register"]

"""Settings out of the lab, in the form each agent takes them: `export(strategy, params, settings, form)`.

One module per form (the registry below is the table of them):
- python_module.py (`python`): the tutorial's constants and the four layers as one module, standard library
  only (the template is standalone.py; inline.py writes the lab's functions into it);
- context_management.py: the Messages API's `context_management` fragment;
- claude_code_env.py (`claude-code`): environment lines, and what Claude Code cannot set;
- codex_config.py (`codex`): Codex CLI's config.toml keys;
- langchain_middleware.py (`langchain`): LangChain's middleware construction;
- openhands_config.py (`openhands`): OpenHands' condenser config;
- gemini_settings.py (`gemini`): Gemini CLI's settings.json key;
- client_source.py (`client`): the lab's compacting client, for every strategy.
A form that does not carry the chosen strategy is refused by name, with the forms that do.
"""

from collections.abc import Mapping
from typing import Any

from compaction.errors import SettingsError
from compaction.export import (
    claude_code_env,
    client_source,
    codex_config,
    context_management,
    gemini_settings,
    langchain_middleware,
    openhands_config,
    python_module,
)
from compaction.export.base import Exported, Form
from compaction.model.settings import DEFAULTS, Settings
from compaction.strategies import Built, build
from compaction.strategies.claude_code import parse_version

FORMS: tuple[Form, ...] = (
    Form("python", "Standalone Python module", "the tutorial's constants and its four layers in one module, "
         "standard library only (pipeline)", ("pipeline",), python_module.render),
    Form("context_management", "Anthropic API context_management", "the Messages API request fragment for its "
         "context editing and server compaction (anthropic-*)", context_management.STRATEGIES,
         context_management.render),
    Form("claude-code", "Claude Code environment", "the environment lines for Claude Code's auto-compact, and what "
         "it cannot set (claude-code)", claude_code_env.STRATEGIES, claude_code_env.render),
    Form("codex", "Codex CLI config.toml", "Codex CLI's config.toml keys, model_auto_compact_token_limit and "
         "model_context_window (codex)", codex_config.STRATEGIES, codex_config.render, aliases=("codex-toml", "toml")),
    Form("langchain", "LangChain middleware", "the construction of LangChain's SummarizationMiddleware or "
         "ContextEditingMiddleware with ClearToolUsesEdit (langchain-*)", langchain_middleware.STRATEGIES,
         langchain_middleware.render),
    Form("openhands", "OpenHands condenser", "an OpenHands condenser config: config.toml's [condenser], or JSON "
         "for the pipeline (openhands-*)", openhands_config.STRATEGIES, openhands_config.render),
    Form("gemini", "Gemini CLI settings.json", "Gemini CLI's model.compressionThreshold (gemini-cli)",
         gemini_settings.STRATEGIES, gemini_settings.render),
    Form("client", "Compaction Lab's compacting client", "the construction of compaction.agent.CompactingClient "
         "(every strategy)", client_source.STRATEGIES, client_source.render),
)
BY_NAME: dict[str, Form] = {key: form for form in FORMS for key in (form.name, *form.aliases)}


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", "-").split())


_KEYS = {_key(key): form for key, form in BY_NAME.items()}


def lookup_form(name: str) -> Form:
    found = _KEYS.get(_key(name))
    if found is None:
        raise SettingsError(f"unknown export form {name!r}; choose one of {', '.join(f.name for f in FORMS)}")
    return found


def forms_for(strategy: str) -> list[Form]:
    """The forms that carry `strategy`, in the registry's order."""
    return [form for form in FORMS if form.fits(strategy)]


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
    the session tuned on, for a strategy whose `version` is `auto` (Claude Code's rules change with it)."""
    built = strategy if isinstance(strategy, Built) else build(strategy, params)
    chosen = check_fits(form, built.spec.name)
    if built.params.get("version") == "auto" and parse_version(agent_version) is not None:
        built = build(built.spec.name, {**built.params, "version": agent_version})
    return chosen.render(built, settings or DEFAULTS)


__all__ = ["FORMS", "Exported", "Form", "check_fits", "export", "forms_for", "lookup_form"]

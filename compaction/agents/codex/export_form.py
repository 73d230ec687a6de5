"""The `codex` form: Codex CLI's `config.toml` keys for its auto-compaction, `model_context_window` and
`model_auto_compact_token_limit`, at the tuned limit (the one the replay used: the smaller of the limit
asked for and 90 % of the window, as Codex's model info computes it)."""

from compaction.agents.codex.preset import CONTEXT_WINDOW, USER_MESSAGE_BUDGET, auto_compact_limit
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("codex",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    limit = auto_compact_limit(params)
    window = [f"model_context_window = {params['window_tokens']}"] if params["window_tokens"] else []
    text = "\n".join([
        "# Codex CLI, ~/.codex/config.toml: auto-compaction as tuned in Compaction Lab (strategy codex)",
        *window,
        f"model_auto_compact_token_limit = {limit}",
    ]) + "\n"
    keys = "the two keys" if window else "the key"
    notes = [f"Put {keys} at the top level of ~/.codex/config.toml (or a profile's table); Codex compacts "
             f"once the conversation reaches {limit:,} tokens."]
    if not window:
        notes.append(f"model_context_window is left to Codex's model info ({CONTEXT_WINDOW:,} tokens for the GPT-5 "
                     "family), the window the lab read from the log.")
    elif params["window_tokens"] != CONTEXT_WINDOW:
        notes.append(f"model_context_window tells Codex the model's window; {params['window_tokens']:,} must be what "
                     "your model really accepts.")
    budget = params["user_message_budget_tokens"]
    notes.append(f"Cannot be set in Codex: how much of the person's newest messages a compaction keeps "
                 f"({USER_MESSAGE_BUDGET:,} tokens, a constant of codex-rs compact.rs)"
                 + (f"; the {budget:,} tuned here has no key." if budget != USER_MESSAGE_BUDGET else "."))
    return Exported("codex", built.spec.name, text, "config.toml", "toml", tuple(notes))

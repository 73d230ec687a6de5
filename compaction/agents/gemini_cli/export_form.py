"""The `gemini` form: Gemini CLI's settings.json key for its chat compression, `model.compressionThreshold`
(the share of the model's token limit at which the chat is compressed)."""

import json

from compaction.agents.gemini_cli.preset import THRESHOLD_FROM_2025_11_20, TOKEN_LIMIT
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("gemini-cli",)
FIXED = {"preserve_fraction": (0.3, "the newest share of the history kept (COMPRESSION_PRESERVE_THRESHOLD)"),
         "function_response_budget_tokens": (50_000, "the newest tool outputs kept whole "
                                                     "(COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET)"),
         "truncate_chars": (40_000, "what a shortened tool output keeps (truncateToolOutputThreshold)")}


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    fraction = params["threshold_fraction"] or THRESHOLD_FROM_2025_11_20
    text = json.dumps({"model": {"compressionThreshold": fraction}}, indent=2) + "\n"
    notes = ["Merge it into ~/.gemini/settings.json (or the project's .gemini/settings.json)."]
    if not params["threshold_fraction"]:
        notes.append(f"{fraction:g} is gemini-cli's default since 20 Nov 2025 (0.7 before): the replay used the "
                     "default of the session's date.")
    if params["window_tokens"] and params["window_tokens"] != TOKEN_LIMIT:
        notes.append(f"The token limit ({params['window_tokens']:,}) is the model's own in Gemini CLI: choose the "
                     "model, there is no setting for it.")
    for name, (default, words) in FIXED.items():
        if params[name] != default:
            notes.append(f"Cannot be set in Gemini CLI: {words}; it stays {default:,}, not the {params[name]:,} "
                         "tuned here.")
    return Exported("gemini-cli", built.spec.name, text, "settings.json", "json", tuple(notes))

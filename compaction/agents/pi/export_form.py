"""The `pi` form: Pi's settings.json `compaction` block, with the two keys the tuned preset set."""

import json

from compaction.agents.pi.preset import KEEP_RECENT_TOKENS, RESERVE_TOKENS
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("pi",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    block = {"compaction": {"enabled": True, "reserveTokens": params["reserve_tokens"],
                            "keepRecentTokens": params["keep_recent_tokens"]}}
    notes = ["Merge the block into ~/.pi/agent/settings.json (every project) or .pi/settings.json in the project "
             f"(that one only); Pi's defaults are reserveTokens {RESERVE_TOKENS:,} and keepRecentTokens "
             f"{KEEP_RECENT_TOKENS:,}."]
    if params["window_tokens"]:
        notes.append(f"Cannot be set in settings.json: the window ({params['window_tokens']:,} tokens here); Pi takes "
                     "it from the model's contextWindow (its model registry, or models.json for a model of your own).")
    return Exported("pi", built.spec.name, json.dumps(block, indent=2) + "\n", "settings.json", "json", tuple(notes))

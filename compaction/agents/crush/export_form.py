"""The `crush` form: crush.json's part of Crush's auto-summarise. Only `options.disable_auto_summarize` and
a model's `context_window` can be set; the tokens left at which it summarises are constants of Crush."""

import json

from compaction.agents.crush.preset import remaining_limit
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("crush",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    text = json.dumps({"$schema": "https://charm.land/crush.json",
                       "options": {"disable_auto_summarize": bool(params["disable_auto_summarize"])}}, indent=2) + "\n"
    notes = ["Merge it into crush.json (the project's, or ~/.config/crush/crush.json)."]
    window = params["window_tokens"]
    if window:
        notes.append(f"The window ({window:,} tokens) is the model's context_window: Crush takes it from its "
                     "provider list; for a custom model set providers.<id>.models[].context_window in crush.json.")
    if params["remaining_tokens"] and (not window or params["remaining_tokens"] != remaining_limit(window)):
        notes.append(f"Cannot be set in Crush: the tokens left at which it summarises ({params['remaining_tokens']:,} "
                     "here) are constants of internal/agent/agent.go: 20,000 over a 200,000-token window, else a "
                     "fifth of it.")
    return Exported("crush", built.spec.name, text, "crush.json", "json", tuple(notes))

"""The `context_management` form: the Messages API request fragment for the API's own context management,
`{"context_management": {"edits": [...]}}`, at the tuned parameters (clear_tool_uses_20250919,
clear_thinking_20251015, compact_20260112). It goes beside `messages` in a request to the beta Messages
API with the beta header the edit needs; the tests check it against the anthropic SDK's request types.
"""

import json

from compaction.export.base import Exported, excluded_tools, keep_notes
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("anthropic-clear-tool-uses", "anthropic-clear-thinking", "anthropic-compact")
BETAS = {"anthropic-clear-tool-uses": "context-management-2025-06-27",
         "anthropic-clear-thinking": "context-management-2025-06-27",
         "anthropic-compact": "compact-2026-01-12"}


def edit(built: Built, settings: Settings | None = None) -> dict:
    """The edit object of the strategy at its parameters, in the API's field names (the tools `settings`
    keep verbatim among exclude_tools)."""
    name, params = built.spec.name, built.params
    if name == "anthropic-clear-tool-uses":
        found: dict[str, object] = {
            "type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": params["trigger"]},
            "keep": {"type": "tool_uses", "value": params["keep"]}}

        if params["clear_at_least"]:
            found["clear_at_least"] = {"type": "input_tokens", "value": params["clear_at_least"]}
        excluded = excluded_tools(params, settings or Settings())
        if excluded:
            found["exclude_tools"] = excluded
        found["clear_tool_inputs"] = params["clear_tool_inputs"]
        return found
    if name == "anthropic-clear-thinking":
        keep = "all" if params["keep_all"] else {"type": "thinking_turns", "value": params["keep"]}
        return {"type": "clear_thinking_20251015", "keep": keep}
    found = {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": params["trigger"]},
             "pause_after_compaction": False}
    if params["instructions"]:
        found["instructions"] = params["instructions"]
    return found


def render(built: Built, settings: Settings) -> Exported:
    fragment = {"context_management": {"edits": [edit(built, settings)]}}
    beta = BETAS[built.spec.name]
    notes = [f"Send it in the request body beside `messages`, with the beta header `anthropic-beta: {beta}` "
             f"(Python: `client.beta.messages.create(..., betas=[\"{beta}\"], **fragment)`)."]
    notes += keep_notes(settings, carried=built.spec.name == "anthropic-clear-tool-uses")
    if built.spec.name == "anthropic-clear-tool-uses":
        notes.append("The text the API puts in place of a cleared result is the API's own: no field sets it (the "
                     "replay writes `[tool result cleared]` for it).")
    if built.spec.name == "anthropic-compact":
        notes.append("The response then starts with a `compaction` block: send it back in the next request, as the "
                     "API drops everything before it; the summary is written by the model, not the lab's summariser.")
    if "trigger" in built.params:
        notes.append("The trigger counts the request's input tokens as the API counts them; the replay estimated "
                     "them from characters, so the edit may start a call or two apart from where the replay showed it.")
    return Exported("context_management", built.spec.name, json.dumps(fragment, indent=2) + "\n",
                    "context_management.json", "json", tuple(notes))

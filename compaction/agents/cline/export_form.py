"""The settings each extension reads, as the replay used them.

- Cline (3.x): `useAutoCondense` (its global settings); its trigger is no setting but follows the model's
  window, which an OpenAI-compatible provider sets in `openAiModelInfo.contextWindow`;
- Roo Code and Kilo Code: `autoCondenseContext` and `autoCondenseContextPercent` in the JSON their
  Settings > About > Import reads (`globalSettings`), and the model's `maxTokens` as the reserve."""

import json

from compaction.agents.cline.cline_preset import max_allowed
from compaction.agents.cline.roo_preset import DEFAULT_MAX_TOKENS
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

WINDOWS = (64_000, 128_000, 200_000)


def window_for_trigger(trigger: int) -> int:
    """A contextWindow whose maxAllowedSize is `trigger`: a fixed row's, else the window less 40,000 above
    200,000 (where that is the larger), else the window whose 80 % it is."""
    for window in WINDOWS:
        if max_allowed(window) == trigger:
            return window
    return trigger + 40_000 if trigger >= 160_000 else round(trigger / 0.8)


def render_cline(built: Built, settings: Settings) -> Exported:
    params = built.params
    text = json.dumps({"useAutoCondense": bool(params["auto_condense"])}, indent=2) + "\n"
    notes = ["Cline keeps useAutoCondense in its global settings (Settings > Features: auto-compact); it applies "
             "to next-gen models (Claude 4 and later, GPT-5), others always truncate."]
    if params["max_allowed_tokens"]:
        window = window_for_trigger(params["max_allowed_tokens"])
        notes.append(f"Cline has no setting for the trigger: it is the window's maxAllowedSize. A trigger of "
                     f"{params['max_allowed_tokens']:,} is the size of a {window:,}-token window, which an "
                     f"OpenAI-compatible provider sets as \"openAiModelInfo\": {{\"contextWindow\": {window}}}.")
    return Exported("cline", built.spec.name, text, "cline-settings.json", "json", tuple(notes))


def render_roo(built: Built, settings: Settings) -> Exported:
    params = built.params
    body = {"globalSettings": {"autoCondenseContext": bool(params["auto_condense"]),
                               "autoCondenseContextPercent": int(params["condense_percent"])}}
    text = json.dumps(body, indent=2) + "\n"
    title = built.spec.label
    notes = [f"Import it in {title}: Settings > About > Import settings (or set Context > Automatically trigger "
             "intelligent context condensing and its threshold by hand); a provider profile's own threshold "
             "(profileThresholds) overrides it."]
    if params["max_tokens"] and params["max_tokens"] != DEFAULT_MAX_TOKENS:
        notes.append(f"The reserve of {params['max_tokens']:,} output tokens is the model's maxTokens (the "
                     "provider profile's Max output tokens).")
    return Exported(built.spec.name, built.spec.name, text, f"{built.spec.name}-settings.json", "json", tuple(notes))

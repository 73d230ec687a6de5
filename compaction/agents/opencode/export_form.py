"""The `opencode` form: OpenCode's opencode.json, its `compaction` settings (auto, prune, reserved) and,
where the replay ran at another context limit than the model's, that limit set for the model."""

import json

from compaction.agents.opencode.preset import OUTPUT_TOKEN_MAX, max_output
from compaction.agents.opencode.prune import PROTECT
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("opencode",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    compaction = {"auto": params["auto"], "prune": params["prune"]}
    if params["reserved_tokens"]:
        compaction["reserved"] = params["reserved_tokens"]
    config: dict = {"$schema": "https://opencode.ai/config.json", "compaction": compaction}
    notes = ["Merge it into opencode.json (the project's) or ~/.config/opencode/opencode.json."]
    limit = params["context_limit_tokens"]
    if limit:
        config["provider"] = {"PROVIDER": {"models": {"MODEL": {"limit": {"context": limit,
                                                                         "output": max_output(params)}}}}}
        notes.append(f"Put your provider's and model's ids in place of PROVIDER and MODEL (as in --model "
                     f"PROVIDER/MODEL): OpenCode then compacts once a step reaches {limit - max_output(params):,} "
                     f"tokens, the limit less {max_output(params):,} for the reply.")
    if params["reserved_tokens"] and not params["input_limit_tokens"]:
        notes.append("compaction.reserved only changes the models with an input limit (limit.input).")
    if params["output_limit_tokens"] > OUTPUT_TOKEN_MAX:
        notes.append(f"OpenCode leaves at most {OUTPUT_TOKEN_MAX:,} tokens for the reply "
                     "(OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX raises it).")
    if params["prune_protect_tokens"] != PROTECT:
        notes.append(f"Cannot be set in OpenCode: the newest tool outputs its prune keeps whole (PRUNE_PROTECT); it "
                     f"stays {PROTECT:,} tokens, not the {params['prune_protect_tokens']:,} tuned here.")
    return Exported("opencode", built.spec.name, json.dumps(config, indent=2) + "\n", "opencode.json", "json",
                    tuple(notes))

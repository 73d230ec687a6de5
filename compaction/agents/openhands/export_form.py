"""The `openhands` form: OpenHands' condenser configuration at the tuned parameters, in the field names of
its `openhands/core/config/condenser_config.py`: the `[condenser]` table of config.toml for one
condenser, and the JSON of a CondenserPipelineConfig for the default pipeline (which, as OpenHands says,
its TOML cannot carry)."""

import json

from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("openhands-masking", "openhands-recent", "openhands-amortized", "openhands-llm", "openhands-pipeline")
LLM_TABLE = "condenser"  # the [llm.condenser] table the summarising condenser names
LLM_PLACEHOLDER = "anthropic/claude-sonnet-4-5"  # a placeholder: the model that writes the summaries


def condenser(built: Built) -> tuple[dict, list[str]]:
    """The condenser's config fields, and what cannot be set."""
    name, params = built.spec.name, built.params
    if name == "openhands-masking":
        return {"type": "observation_masking", "attention_window": params["attention_window"]}, []
    if name == "openhands-recent":
        return {"type": "recent", "keep_first": params["keep_first"], "max_events": params["max_events"]}, []
    if name == "openhands-amortized":
        return {"type": "amortized", "keep_first": params["keep_first"], "max_size": params["max_size"]}, []
    notes = []
    if params.get("max_tokens"):
        notes.append(f"Cannot be set in the config: condensing over {params['max_tokens']:,} tokens (max_tokens is a "
                     "field of the agent SDK's LLMSummarizingCondenser, not of the app's condenser config).")
    if params.get("minimum_progress") not in (None, 0.0):
        notes.append(f"Cannot be set in the config: skipping a condensation that forgets less than "
                     f"{params['minimum_progress']:.0%} of the events (the replay's minimum_progress).")
    llm = {"type": "llm", "llm_config": LLM_TABLE, "keep_first": params["keep_first"], "max_size": params["max_size"]}
    return llm, notes


def _toml(fields: dict) -> str:
    lines = ["[condenser]"] + [f"{key} = {json.dumps(value)}" for key, value in fields.items()]
    if fields["type"] == "llm":
        lines += ["", f"[llm.{LLM_TABLE}]  # the model that writes the summaries: choose yours",
                  f"model = {json.dumps(LLM_PLACEHOLDER)}"]
    return "\n".join(lines) + "\n"


def render(built: Built, settings: Settings) -> Exported:
    if built.spec.name == "openhands-pipeline":
        params = built.params
        llm, notes = condenser(built)
        llm["llm_config"] = {"model": LLM_PLACEHOLDER}
        pipeline = {"type": "pipeline", "condensers": [
            {"type": "browser_output_masking", "attention_window": params["browser_attention_window"]}, llm]}
        notes = ["A CondenserPipelineConfig, as JSON: OpenHands' config.toml cannot carry a pipeline; give it "
                 "where your OpenHands takes a condenser config object (`CondenserPipelineConfig(**config)`).",
                 *notes]
        if tuple(params["browser_tools"]) != ("browser", "web_read"):
            notes.append("Cannot be set: which tools count as browsing; OpenHands masks its own browser "
                         "observations.")
        return Exported("openhands", built.spec.name, json.dumps(pipeline, indent=2) + "\n", "condenser.json", "json",
                        tuple(notes))
    fields, notes = condenser(built)
    text = f"# OpenHands config.toml: the condenser tuned in Compaction Lab (strategy {built.spec.name})\n" + \
        _toml(fields)
    notes = ["Put the [condenser] table in OpenHands' config.toml." +
             (f" It names the [llm.{LLM_TABLE}] table for the summarising model." if fields["type"] == "llm" else ""),
             *notes, "OpenHands counts events; the lab counts messages (a call and its result are two events there, "
                     "parallel calls several), so the numbers mean slightly different amounts."]
    return Exported("openhands", built.spec.name, text, "config.toml", "toml", tuple(notes))

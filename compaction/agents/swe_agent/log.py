"""SWE-agent trajectories (`.traj`): `{"history": [...], "trajectory": [...], "info": {...}}`.

`history` is the conversation, in OpenAI chat form with SWE-agent's own keys beside it (`agent`,
`message_type`, `thought`, `action`); a tool reply names the calls it answers in `tool_call_ids`, a
list, instead of `tool_call_id`. Each `trajectory` step repeats the whole message list so far (the
file grows with the square of the run): it is not read. `info` (exit status, model stats) goes to
the metadata.

No message records its call's usage: `info.model_stats` (sweagent/agent/models.py, InstanceStats) gives
the run's totals, `instance_cost` (US$, as LiteLLM priced the calls), `tokens_sent` (every call's input,
as LiteLLM counted it), `tokens_received` and `api_calls`; they are the recorded totals. (`total_cost`,
beside them in older files, is the whole batch's so far, not this instance's.) The model is
`replay_config.agent.model.name` (a JSON text, or an object in some test files); older files name none.
"""

import json
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.openai import Converter
from compaction.importers.source import kind_of
from compaction.importers.totals import RECORDED_TOTALS, cached_input_counts, run_totals
from compaction.model.conversation import Conversation, LoadWarning

FORMAT = "swe-agent"
_INFO_KEYS = ("exit_status", "submission", "model_stats", "swe_agent_version", "swe_agent_hash")


def looks_like(value: Any) -> bool:
    """A trajectory: `history` holds chat messages (with `role`), not OpenHands events."""
    if not isinstance(value, dict) or not isinstance(value.get("history"), list) or "messages" in value:
        return False
    first = value["history"][:5]
    return bool(first) and all(isinstance(m, dict) and "role" in m for m in first)


def from_json(value: Any, label: str) -> Conversation:
    if not looks_like(value):
        raise ConversationError("expected a SWE-agent trajectory: an object whose 'history' lists chat "
                                f"messages (role, content); got {kind_of(value)}", where=label)
    converter = Converter(label, list_name="history")
    answered_together = 0
    for index, message in enumerate(value["history"]):
        if isinstance(message, dict) and message.get("role") == "tool" and "tool_call_id" not in message:
            replies = _tool_replies(message, f"{label}: history[{index}]")
            answered_together += len(replies) - 1
            for reply in replies:
                converter.add(reply, index)
        else:
            converter.add(message, index)
    if answered_together:
        converter.warnings.append(LoadWarning(
            f"{answered_together:,} tool call(s) were answered by an observation shared with another call; "
            "its text is kept with the first call of each", kind="shared_observation"))
    system = "\n\n".join(converter.system) if converter.system else None
    info = value.get("info") if isinstance(value.get("info"), dict) else {}
    metadata = {key: info[key] for key in _INFO_KEYS if key in info}
    steps = value.get("trajectory")
    metadata["trajectory_steps_ignored"] = len(steps) if isinstance(steps, list) else 0
    model = _model(value.get("replay_config"))
    if model:
        metadata["model"] = model
    stats = info.get("model_stats")
    totals = _totals(stats, model)
    if totals:
        metadata[RECORDED_TOTALS] = totals
    elif "model_stats" in info:
        converter.warnings.append(LoadWarning(
            "info.model_stats gives no cost and no tokens (an object with instance_cost, tokens_sent, "
            f"tokens_received and api_calls is expected; got {_what(stats)}): the run's cost is unknown",
            kind="model_stats_empty"))
    return converter.conversation(FORMAT, system, [], metadata=metadata)


def _totals(stats: Any, model: str | None) -> dict | None:
    if not isinstance(stats, dict):
        return None
    counts = cached_input_counts(stats.get("tokens_sent"), 0, stats.get("tokens_received"))
    return run_totals("info.model_stats", counts, model, stats.get("instance_cost"), stats.get("api_calls"))


def _what(stats: Any) -> str:
    return "zeros" if isinstance(stats, dict) else kind_of(stats)


def _model(config: Any) -> str | None:
    """`replay_config.agent.model.name`; None when the file has no such config or it does not parse."""
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except ValueError:
            return None
    agent = config.get("agent") if isinstance(config, dict) else None
    model = agent.get("model") if isinstance(agent, dict) else None
    name = model.get("name") if isinstance(model, dict) else None
    return name.strip() if isinstance(name, str) and name.strip() else None


def _tool_replies(message: dict, where: str) -> list[dict]:
    """A tool message answering `tool_call_ids` as one OpenAI tool reply per id (the first holds the text)."""
    ids = message.get("tool_call_ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise ConversationError("a tool message needs 'tool_call_ids' (a list of strings) or 'tool_call_id'",
                                where=where)
    first = {"role": "tool", "tool_call_id": ids[0], "content": message.get("content")}
    others = [{"role": "tool", "tool_call_id": call_id,
               "content": f"(answered together with call {ids[0]}: see its result)"} for call_id in ids[1:]]
    return [first, *others]

"""Codex's own count of the context, the one it compares with its auto-compact limit (codex-rs
core/src/context_manager/history.rs, `get_total_token_usage`):

- the last response's total tokens as the API answered them (its input, cached included, plus its output);
- plus an estimate of the items recorded since the last model output (the outputs of its tool calls, input
  the person queued): each item's JSON, bytes / 4 rounded up, a tool output first cut to the turn's
  truncation policy (limit x 1.2, as Codex records it);
- plus an estimate of the encrypted reasoning items before the last turn of the person (the importer's
  `reasoning_estimates`: base64 length x 3 / 4 - 650 bytes, / 4).

Codex checks mid-turn, after a response that asked for tools (its outputs count), and before a new turn of
the person (whose message is not recorded yet, so nothing after the response counts). Where the history is
still the one the agent sent, the last response's total is the log's; after the histories part, the token
model's estimate of the history up to that response.
"""

import json
from dataclasses import dataclass

from compaction.agents.codex.log.compaction import ENCRYPTED_SUMMARY
from compaction.agents.codex.log.items import INJECTED
from compaction.agents.codex.markers import SUMMARY_PREFIX
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.messages import blocks
from compaction.strategies.agent_sent import sent_by_the_agent

IMAGE_BYTES = 7_373  # history.rs: RESIZED_IMAGE_BYTES_ESTIMATE, an inline image's estimate
SERIALISATION_BUDGET = 1.2  # history.rs process_item: policy * 1.2 for a recorded tool output
DEFAULT_POLICY = {"mode": "tokens", "limit": 10_000}  # every real rollout's turn_context from cli 0.108 on
# how the texts open that are not the person's: Codex's own context, summaries (local, and a remote one's stand-in)
_NOT_THE_PERSON = (SUMMARY_PREFIX, ENCRYPTED_SUMMARY.split("{")[0], *(opening for opening, _ in INJECTED))


@dataclass(frozen=True)
class CodexCount:
    tokens: int  # what Codex compares with its limit
    last_response: int  # the last response's total (0 before the first)
    added: int  # estimated items since it
    reasoning: int  # estimated encrypted reasoning before the person's last turn

    def words(self) -> str:
        return (f"{self.tokens:,} tokens (the last response's {self.last_response:,} + {self.added:,} added since + "
                f"{self.reasoning:,} of earlier reasoning)")


def json_tokens(value) -> int:
    """serde_json's compact text of `value`, bytes / 4 rounded up."""
    return -(-len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) // 4)


def cut(text: str, policy: dict) -> str:
    """A recorded tool output: at most the policy's limit x 1.2 (tokens are 4 bytes), its middle left out."""
    limit = int(policy["limit"] * SERIALISATION_BUDGET) * (4 if policy["mode"] == "tokens" else 1)
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    half = limit // 2
    return data[:half].decode("utf-8", "ignore") + "…truncated…" + data[len(data) - half:].decode("utf-8", "ignore")


def _content_text(content) -> tuple[str, int]:
    """(the text of a tool result's content, how many images it holds)."""
    if isinstance(content, str):
        return content, 0
    texts, images = [], 0
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif isinstance(block, dict) and block.get("type") == "image":
            images += 1
    return "\n".join(texts), images


def added_tokens(history: History, start: int, policy: dict) -> int:
    """Codex's estimate of the input items in messages[start:], one item per block as Codex records it."""
    total = 0
    for message in history.messages[start:]:
        for block in blocks(message):
            kind = block.get("type")
            if kind == "tool_result":
                text, images = _content_text(block.get("content", ""))
                item = {"type": "function_call_output", "call_id": str(block.get("tool_use_id", "")),
                        "output": cut(text, policy)}
                total += json_tokens(item) + -(-images * IMAGE_BYTES // 4)
            elif kind == "text":
                total += json_tokens({"type": "message", "role": "user",
                                      "content": [{"type": "input_text", "text": str(block.get("text", ""))}]})
            elif kind == "image":
                total += -(-IMAGE_BYTES // 4)
    return total


def is_person_turn(message: dict) -> bool:
    """A user message the person wrote (not tool outputs, not Codex's own context, not a summary)."""
    if message.get("role") != "user":
        return False
    for block in blocks(message):
        text = block.get("text") if block.get("type") == "text" else None
        if isinstance(text, str) and text.strip() and not text.lstrip().startswith(_NOT_THE_PERSON):
            return True
    return False


def _reasoning_by_origin(history: History) -> dict[int, int]:
    def build() -> dict[int, int]:
        found = history.recorded.metadata.get("reasoning_estimates") or []
        return {int(index): int(tokens) for index, tokens in found}
    return history.shared_value("codex_reasoning_estimates", build)


def reasoning_tokens(history: History, before: int) -> int:
    """The encrypted reasoning of the responses at positions before `before`."""
    estimates = _reasoning_by_origin(history)
    return sum(estimates.get(origin, 0) for origin, message in zip(history.origins[:before], history.messages[:before],
                                                                   strict=True)
               if origin is not None and message.get("role") == "assistant")


def last_response_total(history: History, position: int) -> int:
    """Input plus output of the response at `position`: the log's where the history up to it is the agent's,
    else the estimate of the history up to it."""
    origin = history.origins[position]
    usage = history.recorded.usage
    if origin is not None and origin < len(usage) and usage[origin] and sent_by_the_agent(history, position):
        return recorded_context(usage[origin]) + usage[origin]["output_tokens"]
    prefix = position + 1
    return history.derive(history.messages[:prefix], history.sizes[:prefix], history.origins[:prefix]).context_tokens


def codex_count(history: History) -> CodexCount:
    """What Codex counts before sending `history` (see the module's docstring)."""
    messages = history.messages
    last = next((p for p in range(len(messages) - 1, -1, -1) if messages[p].get("role") == "assistant"), None)
    if last is None:  # no response yet: Codex's usage is empty
        return CodexCount(0, 0, 0, 0)
    policy = history.recorded.metadata.get("truncation_policy") or DEFAULT_POLICY
    mid_turn = any(block.get("type") == "tool_result" for m in messages[last + 1:] for block in blocks(m))
    added = added_tokens(history, last + 1, policy) if mid_turn else 0  # a new turn's message is not recorded yet
    boundary = next((p for p in range(last, -1, -1) if is_person_turn(messages[p])), None)
    reasoning = reasoning_tokens(history, boundary) if boundary is not None else 0
    total = last_response_total(history, last)
    return CodexCount(total + added + reasoning, total, added, reasoning)

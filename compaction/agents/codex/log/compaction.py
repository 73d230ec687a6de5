"""What Codex sent after one of its compactions: the new start of the history.

A `compacted` line carries `replacement_history`, the items Codex put in place of the history (every
real file seen: the user messages kept, in 0.117+ also the assistant's final answers and a developer
message, and a `compaction` item whose summary the server encrypted; `message` is empty). The new start
is one user message of those items' texts, so that the kept answers are not counted as model calls of
their own. Older local compaction wrote only `message` (the summary, with its prefix); the new start is
then rebuilt as Codex's compact.rs builds it: the newest real user messages within 20,000 tokens (bytes
/ 4), the oldest of them cut in the middle to fit, then the summary.
"""

from dataclasses import dataclass, field

from compaction.agents.codex.log.items import content_blocks, convert, item_type

USER_MESSAGE_BUDGET = 20_000  # tokens of kept user messages (compact.rs: COMPACT_USER_MESSAGE_MAX_TOKENS)
ENCRYPTED_SUMMARY = "[Codex compaction summary, encrypted by the server: {chars:,} characters]"


@dataclass
class NewStart:
    blocks: list[dict] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # per block: "user", "injected:<kind>", "answer", "summary"
    system: list[str] = field(default_factory=list)  # developer texts it carries
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, block: dict, kind: str) -> None:
        self.blocks.append(block)
        self.kinds.append(kind)

    def count(self, name: str, amount: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + amount


def from_replacement(items: list, where: str) -> NewStart:
    start = NewStart()
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            start.count("items_left_out")
            continue
        kind = item_type(item)
        if kind in ("compaction", "compaction_summary"):
            encrypted = item.get("encrypted_content")
            chars = len(encrypted) if isinstance(encrypted, str) else 0
            start.add({"type": "text", "text": ENCRYPTED_SUMMARY.format(chars=chars)}, "summary")
            start.count("encrypted_summary_chars", chars)
            continue
        if kind == "message" and item.get("role") == "assistant":
            blocks, _ = content_blocks(item.get("content"), f"{where}: replacement_history[{position}]")
            for block in blocks:
                start.add(block, "answer")
            start.count("kept_assistant_messages")
            continue
        converted = convert(item, f"{where}: replacement_history[{position}]") if kind == "message" else None
        if converted is None:
            start.count("items_left_out")  # ghost snapshots, calls: not sent as history text
        elif converted.side == "system":
            start.system.append(converted.system or "")
            start.count("kept_developer_messages")
        else:
            for block in converted.blocks:
                start.add(block, f"injected:{converted.injected}" if converted.injected else "user")
            start.count("kept_user_messages")
    return start


def rebuilt(user_texts: list[str], summary: str) -> NewStart:
    """compact.rs's new history without its initial context (environment, instructions: in the system
    prompt and the first messages here already)."""
    start = NewStart()
    remaining = USER_MESSAGE_BUDGET
    kept: list[str] = []
    for text in reversed(user_texts):
        if remaining <= 0:
            break
        tokens = approx_tokens(text)
        if tokens <= remaining:
            kept.append(text)
            remaining -= tokens
        else:
            kept.append(cut_to_tokens(text, remaining))
            break
    for text in reversed(kept):
        start.add({"type": "text", "text": text}, "user")
    start.count("kept_user_messages", len(kept))
    start.add({"type": "text", "text": summary or "(no summary available)"}, "summary")
    return start


def approx_tokens(text: str) -> int:
    return -(-len(text.encode("utf-8")) // 4)


def cut_to_tokens(text: str, tokens: int) -> str:
    """The start and end of a text within `tokens` (4 characters each), the middle left out and named."""
    keep = max(tokens * 4, 0)
    if len(text) <= keep:
        return text
    head, tail = text[: keep // 2], text[len(text) - keep // 2:] if keep // 2 else ""
    return f"{head}…{approx_tokens(text) - tokens:,} tokens truncated…{tail}"

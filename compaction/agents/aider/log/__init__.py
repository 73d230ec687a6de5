"""Aider's chat history (`.aider.chat.history.md` in the project's folder), in Anthropic form.

How a file is read, one idea per module:
- blocks.py: the lines as runs, the person's input, notices and replies (aider/io.py's layout);
- commands.py: the person's commands (what aider does with `/clear`, `/ask ...`, `/chat-mode`);
- tokens.py: the Tokens line after each reply (its counts are rounded: `1.8k`, `21k`);
- assemble.py: messages, one model call per reply with that line's usage, the compaction points.

The file appends every run of aider in the folder; each starts with an empty chat (unless
--restore-chat-history, whose run says "Restored previous conversation history."). The runs are loaded
one after another as one conversation (a replay's what-ifs carry the earlier runs' messages, the recorded
tokens do not) and listed in `metadata["runs"]`; `sessions` lists them as sessions of the file (a corpus's
rows, the upload's picker) and `load_session` reads one alone, its lines numbered as in the file.

One model call per reply, its usage from the Tokens line after it: input = `sent` less the cache's reads
and writes, output = `received`, the model the run announced (`Main model: X with diff edit format`), and
`cost_usd`, the cost aider printed for the call (`Cost: $0.0021 message`) when it printed one. Counts of
1,000 and more print rounded (`1.8k`: 1,750 to 1,849; `21k`: 20,500 to 21,499), so that usage is
approximate, and a warning says so. A reply cut off (^C) has no Tokens line and no usage; a Tokens line
with no reply before it (a call refused or cut off before any text) is a call with an empty reply. A reply
aider asked for itself (a reflection: files added, an edit that failed, lint errors) follows a user
message made of the notices since the reply before: what aider sent is not in the file. A reply aider
continued past the output limit ("infinite output") is several calls summed in one Tokens line.

Aider's own compactions, in `metadata["compact_boundaries"]`, each at the message that follows it:
- `/clear` and `/reset` (trigger "clear"): the chat is emptied; one of an empty chat changes nothing and
  is not counted;
- its chat-history summarisation (trigger "summary"; aider/history.py ChatSummary): the file keeps no
  trace of it as such. Aider writes neither the summary nor a notice, except "Starting to summarize chat
  history." under --verbose; a switch of edit format (`/chat-mode architect`, `/model` to a model of
  another format) summarises the whole chat, and the file shows the new format announced after the
  command. Only these are counted: the summaries of a run without --verbose cannot be seen in the file.
  Neither the summary nor the messages it kept are in the file (`summary_in_file`: false).

What the file does not hold: the system prompt, the repository map and the files' contents aider sent
(the recorded tokens include them), and the messages aider adds itself (a commit's "Ok." pair, command
output added to the chat).
"""

from pathlib import Path

from compaction.agents.aider.log.assemble import Assembled, Walk
from compaction.agents.aider.log.blocks import RUN, read_blocks
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.runs import RunKey
from compaction.importers.source import decode_utf8, read_source
from compaction.model.conversation import Conversation, LoadWarning

FORMAT = "aider"


def looks_like(head: str) -> bool:
    """The head of a file holds a run's first line, `# aider chat started at 2025-10-20 21:49:17`."""
    return any(RUN.match(line) for line in head.splitlines())


def load(text: str, label: str) -> Conversation:
    walk = Walk()
    for block in read_blocks(text):
        walk.read(block)
    out = walk.out
    if not out.messages:
        raise ConversationError(f"no message to the model: an Aider chat history of {len(out.runs):,} run(s) and "
                                f"{out.counts.get('commands', 0):,} command(s), without a prompt or a reply", where=label)
    fresh = frozenset(b["index"] for b in out.boundaries if b["trigger"] == "clear") | frozenset(
        run["index"] for run in out.runs if not run["restored"])
    usage = out.usage if any(out.usage) else []
    return build_conversation(out.messages, label, FORMAT, _warnings(out), metadata=_metadata(out),
                              fresh_starts=fresh, usage=usage)


def _metadata(out: Assembled) -> dict:
    replies = sum(1 for m in out.messages if m["role"] == "assistant")
    with_usage = sum(1 for u in out.usage if u is not None)
    printed = [u["cost_usd"] for u in out.usage if u is not None and "cost_usd" in u]
    return {
        "agent_version": out.versions[-1] if out.versions else None,
        "aider_versions": out.versions,
        "models": out.models,
        "weak_models": out.weak_models,
        "runs": out.runs,
        "compact_boundaries": out.boundaries,
        "replies": replies,
        "replies_without_usage": replies - with_usage,
        "tokens_lines": out.counts.get("tokens_lines", 0),
        "tokens_lines_rounded": out.counts.get("tokens_lines_rounded", 0),
        "calls_without_text": out.counts.get("calls_without_text", 0),
        "tokens_lines_without_call": out.counts.get("tokens_lines_without_call", 0),
        "printed_cost_usd": round(sum(printed), 6) if printed else None,  # the calls' own Cost parts, summed
        "calls_with_printed_cost": len(printed),
        "commands": out.counts.get("commands", 0),
        "clear_commands": out.counts.get("clear_commands", 0),
        "reflections": out.counts.get("reflections", 0),
        "lines_before_any_prompt": out.counts.get("lines_before_any_prompt", 0),
    }


def _warnings(out: Assembled) -> list[LoadWarning]:
    found = list(out.warnings)
    rounded, lines = out.counts.get("tokens_lines_rounded", 0), out.counts.get("tokens_lines", 0)
    if rounded:
        found.append(LoadWarning(f"{rounded:,} of {lines:,} Tokens lines print counts in thousands (1.8k, 21k): "
                                 "their usage is approximate, within 50 tokens below 10,000 and 500 above",
                                 kind="rounded_tokens"))
    if sum(1 for run in out.runs if not run["restored"]) > 1:
        found.append(LoadWarning(f"{len(out.runs):,} runs of aider, each starting with an empty chat, loaded one "
                                 "after another as one conversation (metadata: runs)", kind="runs"))
    if out.counts.get("calls_without_text"):
        found.append(LoadWarning(f"{out.counts['calls_without_text']:,} Tokens line(s) follow no reply (a call cut "
                                 "off or refused before any text): each is a call with an empty reply",
                                 kind="call_without_text"))
    return found


__all__ = ["FORMAT", "load", "looks_like"]


def sessions(path: Path) -> tuple[RunKey, ...]:
    """Each run of the history (two or more, else ()): its first line, named by its number and when it
    started. A file that cannot be read lists none (its loading says why)."""
    try:
        text = decode_utf8(path.read_bytes(), path.name)
    except (ConversationError, OSError):
        return ()
    keys: list[RunKey] = []
    for number, line in enumerate(text.splitlines(), 1):
        started = RUN.match(line)
        if started:
            keys.append(RunKey(number, f"run {len(keys) + 1}, started {started.group(1)}", started.group(1), FORMAT))
    return tuple(keys) if len(keys) > 1 else ()


def load_session(path: Path, key: RunKey, label: str) -> Conversation:
    """One run alone: its lines up to the next run's first, the lines before it left blank so that every
    message names its line in the file."""
    lines = decode_utf8(read_source(path, label)[0], label).splitlines(keepends=True)
    started = RUN.match(lines[key.line - 1]) if len(lines) >= key.line else None
    if started is None or started.group(1) != key.instance:
        raise ConversationError(f"line {key.line:,} no longer starts {key.name} (the file changed since its runs "
                                "were listed): load it again", where=label)
    end = next((n for n in range(key.line, len(lines)) if RUN.match(lines[n])), len(lines))
    return load("\n" * (key.line - 1) + "".join(lines[key.line - 1:end]), f"{label} [{key.name}]")

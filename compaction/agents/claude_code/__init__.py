"""Claude Code: its session log (log/, live_lines.py), its preset (preset.py: persisted outputs,
microcompact, auto-compact by version), its forecast rule, its environment as the export form
(export_form.py), where it keeps its logs and its subagents', its summary's words, the lines it writes
into the person's turn, and its log writer for the samples (sample_log.py, samples.py)."""

from pathlib import PurePosixPath

from compaction.agents.base import Agent
from compaction.agents.claude_code import (
    carried,
    export_form,
    knobs,
    live_kept,
    live_lines,
    log,
    preset,
    rules,
    samples,
)
from compaction.agents.claude_code.injected import INJECTED
from compaction.agents.claude_code.markers import CLEARED, SUMMARY_PREFIX
from compaction.corpus.homes import Home
from compaction.corpus.subagents import Parent, SubagentRule
from compaction.export.base import Form
from compaction.importers.formats import CATCH_ALL, Format, anything
from compaction.live.formats import LiveFormat
from compaction.live.rules import SUMMARISE_ALL, RuleForm
from compaction.live.session import CHARS_PER_TOKEN, Compaction, LiveSession
from compaction.model.conversation import Conversation

NAME, TITLE = "claude-code", "Claude Code"


def _threshold(values: dict, session: LiveSession) -> tuple[int, str]:
    version = session.facts.get("version") if values["version"] == preset.AUTO else values["version"]
    reserve = values["output_reserve_tokens"] or preset.output_reserve_for(version)
    label = f"{TITLE} {version}" if version else f"{TITLE} (newest rule)"
    window = values["window_tokens"] or rules.WINDOW  # 0: the log's; a live log has not shown a larger one yet
    return window - reserve - values["buffer_tokens"], label


def _summary_from_log(last: Compaction, session: LiveSession) -> tuple[int, str] | None:
    """The summary the compaction call writes: the log's last one, else what its compaction line says it kept
    (postTokens: the summary and what was attached with it)."""
    if last.summary_chars:
        return -(-last.summary_chars // CHARS_PER_TOKEN), "the log's last summary (characters / 4)"
    if last.post_tokens:
        return last.post_tokens, "what the log's last compaction kept (postTokens)"
    if last.first_call_after and session.base_tokens:
        return max(last.first_call_after - session.base_tokens, 0), "the first call after the log's last compaction"
    return None


def _project(chain: tuple[str, ...], name: str) -> str | None:
    """The folder right under a `projects` folder (`~/.claude/projects/<dir>/...`), or for a 2.1 subagent
    (`<dir>/<session>/subagents/agent-*.jsonl`) its session's folder."""
    for position in range(len(chain) - 1):
        if chain[position] == "projects":
            return chain[position + 1]
    if len(chain) >= 3 and chain[-1] == "subagents" and name.startswith("agent-"):
        return chain[-3]
    return None


def _subagent_by_path(relative: str) -> Parent | None:
    """2.1.x keeps a subagent's log at `<project>/<session id>/subagents/agent-<agent id>.jsonl`."""
    parts = PurePosixPath(relative).parts
    if len(parts) >= 3 and parts[-2] == "subagents" and parts[-1].startswith("agent-"):
        return Parent(parts[-3])
    return None


def _subagent_by_log(conversation: Conversation, _relative: str, by_path: Parent | None) -> Parent | None:
    """2.0.x keeps it beside the session's own file (`<project>/agent-<agent id>.jsonl`): only its lines say
    which session ran it (their `sessionId` is the parent's)."""
    metadata = conversation.metadata or {}
    if not (metadata.get("agent_id") or by_path):
        return None
    session_id = metadata.get("session_id") if isinstance(metadata.get("session_id"), str) else None
    return Parent(session_id or (by_path.session if by_path else None))


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Claude Code session log (.jsonl), a subagent's own file included", (".jsonl",),
                    None, log.load, log.looks_like, anything, document_rank=100, lines_rank=CATCH_ALL,
                    marks=("type", "uuid", "parentUuid", "sessionId", "message", "leafUuid", "messageId")),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    rules=(RuleForm(NAME, SUMMARISE_ALL, _threshold, live_kept.TYPICAL_SUMMARY,
                    "the median summary of the public logs (9,840 characters)", "window_tokens",
                    summary_from_log=_summary_from_log, first_call_after=live_kept.first_call_after),),
    live=LiveFormat(NAME, TITLE, live_lines.looks_like, live_lines.ClaudeCodeLines, NAME,
                    "a Claude Code line has 'type' and 'uuid' or 'sessionId'", rank=300),
    forms=(Form(NAME, "Claude Code environment", "the environment lines for Claude Code's auto-compact, and what it "
                "cannot set (claude-code)", export_form.STRATEGIES, export_form.render),),
    homes=(Home(TITLE, (".claude", "projects"), ("*.jsonl",), _project),),
    summary_prefixes=(SUMMARY_PREFIX,),
    placeholders=(CLEARED,),
    injected=(INJECTED,),
    subagents=(SubagentRule(NAME, _subagent_by_path, _subagent_by_log),),
    writer=samples.WRITER,
    no_call_models=("<synthetic>",),  # "No response requested.", API error texts: written by Claude Code itself
    carried_on=carried.carried_on,
)

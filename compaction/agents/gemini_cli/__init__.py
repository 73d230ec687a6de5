"""Gemini CLI: its chat recordings and stream-json runs (log/, live_lines.py, live_messages.py), its preset
(preset.py: chat compression past a share of the window, keeping the newest share), its forecast rule,
its settings.json as the export form (export_form.py), where it keeps its chats and its summary's words."""

from datetime import UTC, datetime
from pathlib import PurePosixPath

from compaction.agents.base import Agent
from compaction.agents.gemini_cli import export_form, knobs, live_lines, live_messages, log, preset
from compaction.agents.gemini_cli.markers import SUMMARY_PREFIX
from compaction.corpus.homes import Home, folder_before
from compaction.corpus.subagents import SUBAGENT, Parent, SubagentRule
from compaction.export.base import Form
from compaction.importers.formats import Format
from compaction.live.formats import LiveFormat
from compaction.live.rules import KEEP_NEWEST, RuleForm
from compaction.live.session import LiveSession
from compaction.measures.windows import rows
from compaction.model.conversation import Conversation

NAME, TITLE = log.FORMAT, "Gemini CLI"
_LIMITS = "google-gemini/gemini-cli: packages/core/src/core/tokenLimits.ts"


def _threshold(values: dict, session: LiveSession) -> tuple[int, str]:
    first = session.calls[0].time if len(session.calls) else None
    date = datetime.fromtimestamp(first, UTC).date().isoformat() if first is not None else None
    fraction = values["threshold_fraction"] or preset.threshold_on(date)
    window = values["window_tokens"] or preset.token_limit(session.newest.model if session.newest else None)
    return max(int(window * fraction), 1), TITLE


def _project(chain: tuple[str, ...], _name: str) -> str | None:
    """The folder holding `chats` (`~/.gemini/tmp/<project hash or name>/chats/...`)."""
    return folder_before(chain, ("chats",))


def _subagent_by_log(conversation: Conversation, relative: str, _by_path: Parent | None) -> Parent | None:
    """A chat recording whose `kind` is "subagent", at `chats/<parent session id>/<id>.json`."""
    if (conversation.metadata or {}).get("kind") != SUBAGENT:
        return None
    return Parent(PurePosixPath(relative).parent.name or None)


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Gemini CLI chat recording (session-*.json) or its headless stream-json output",
                    (".json", ".jsonl"), log.from_json, log.from_lines, log.looks_like, log.looks_like_lines,
                    document_rank=200, lines_rank=300, aliases=("gemini",)),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    # No recording gives the state snapshot's size: 2,000 tokens is a guess, and said.
    rules=(RuleForm(NAME, KEEP_NEWEST, _threshold, 2_000, "a guess: no recording gives it", "threshold_fraction"),),
    live=LiveFormat(NAME, TITLE, live_lines.is_fields_line, live_lines.GeminiLines, NAME,
                    "a Gemini CLI recording starts with 'sessionId' and 'projectHash'",
                    document=live_messages.GeminiMessages, rank=200, post_tokens_is_context=True,
                    is_recording=lambda value: isinstance(value, dict) and isinstance(value.get("messages"), list)
                    and "sessionId" in value, recording_looks="an object with 'sessionId' and a 'messages' list"),
    forms=(Form(NAME, "Gemini CLI settings.json", "Gemini CLI's model.compressionThreshold (gemini-cli)",
                export_form.STRATEGIES, export_form.render, aliases=("gemini",)),),
    homes=(Home(TITLE, (".gemini", "tmp"), ("session-*.json", "session-*.jsonl"), _project),),
    summary_prefixes=(SUMMARY_PREFIX,),
    # tokenLimit(model) of gemini-cli: every Gemini 2.5 and 3 model 1,048,576, Gemma 4 256,000
    windows=(*rows("gemini-2.5-pro gemini-2.5-flash gemini-2.5-flash-lite gemini-3-pro gemini-3-flash "
                   "gemini-3.1-pro", log.TOKEN_LIMIT, _LIMITS + " (DEFAULT_TOKEN_LIMIT = 1_048_576)"),
             *rows("gemma-4", log.GEMMA_TOKEN_LIMIT, _LIMITS + " (GEMMA_4_TOKEN_LIMIT = 256_000)")),
    subagents=(SubagentRule(NAME, lambda _relative: None, _subagent_by_log),),
)

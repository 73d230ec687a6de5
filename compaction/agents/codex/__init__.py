"""Codex CLI: its rollout (log/, live_lines.py), its preset (preset.py: auto-compaction at
model_auto_compact_token_limit, keeping the person's newest messages), its forecast rule, its config.toml
as the export form (export_form.py), where it keeps its rollouts and its summary's words."""

from compaction.agents.base import Agent
from compaction.agents.codex import carried, export_form, knobs, live_kept, live_lines, log, preset
from compaction.agents.codex.log.records import ENVELOPE_TYPES
from compaction.agents.codex.markers import SUMMARY_PREFIX
from compaction.corpus.homes import Home, folder_before
from compaction.export.base import Form
from compaction.importers.formats import Format
from compaction.live.formats import LiveFormat
from compaction.live.rules import KEEP_PERSON, RuleForm
from compaction.live.session import CHARS_PER_TOKEN, Compaction, LiveSession
from compaction.measures.windows import rows

NAME, TITLE = "codex", "Codex CLI"
FOLDERS = ("sessions", "archived_sessions")  # under ~/.codex


def _threshold(values: dict, session: LiveSession) -> tuple[int, str]:
    """At the window the rollout reports (its model_context_window, 95 % of the model's), else Codex's own."""
    named = log.model_window(session.facts.get("window")).get("model_window_tokens")
    return preset.auto_compact_limit(values, named), TITLE


def _summary_from_log(last: Compaction, _session: LiveSession) -> tuple[int, str] | None:
    if last.summary_chars:
        return -(-last.summary_chars // CHARS_PER_TOKEN), "the log's last summary (its encrypted size / 4)"
    return None


def _recognise(value: dict) -> bool:
    return value.get("type") in ENVELOPE_TYPES and "payload" in value or live_lines.is_legacy_header(value)


def _project(chain: tuple[str, ...], name: str) -> str | None:
    """The folder holding `sessions` or `archived_sessions` (`~/.codex`) until the log is read: its
    working directory then names the project."""
    return folder_before(chain, FOLDERS) if name.startswith("rollout-") else None


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Codex CLI rollout (rollout-*.jsonl, the 2025 layout included)", (".jsonl",),
                    None, log.load, None, log.looks_like, lines_rank=200),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    # The summary's size when the log has not shown one: the median encrypted summary of five real
    # compactions (7,012 characters of base64: about 1,300 tokens).
    rules=(RuleForm(NAME, KEEP_PERSON, _threshold, 1_300, "typical of real logs", "auto_compact_token_limit",
                    summary_from_log=_summary_from_log, first_call_after=live_kept.first_call_after,
                    counted=live_kept.counted),),
    live=LiveFormat(NAME, TITLE, _recognise, live_lines.CodexLines, NAME, "a Codex line 'type' and 'payload'",
                    rank=100, first_read_is_prefix=False),  # OpenAI's first reads are partial (2,432 of 23,829)
    forms=(Form(NAME, "Codex CLI config.toml", "Codex CLI's config.toml keys, model_auto_compact_token_limit and "
                "model_context_window (codex)", export_form.STRATEGIES, export_form.render,
                aliases=("codex-toml", "toml")),),
    homes=(Home(TITLE, (".codex", "sessions"), ("rollout-*.jsonl",), _project),),
    summary_prefixes=(SUMMARY_PREFIX,),
    # Codex's model metadata gives the GPT-5 family 272,000 tokens (its rollouts report 95 % of it, 258,400)
    windows=rows("gpt-5 gpt-5-codex gpt-5-mini gpt-5-nano gpt-5.1 gpt-5.1-codex gpt-5.1-codex-mini gpt-5.2 "
                 "gpt-5.2-codex gpt-5.3-codex gpt-5.4 gpt-5.4-mini gpt-5.4-nano", preset.CONTEXT_WINDOW,
                 "openai/codex: codex-rs model metadata (context_window 272,000 for the GPT-5 family; rollouts "
                 "report 95 % of it, 258,400, as model_context_window)"),
    carried_on=carried.carried_on,
)

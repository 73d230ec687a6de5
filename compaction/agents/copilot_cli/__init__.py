"""GitHub Copilot CLI: its session log (log/: `events.jsonl`, one model call per assistant.message without
usage, the shutdown's model metrics as the session's totals, its compaction events with their checkpoint
summaries), its preset (preset.py: compaction near 95 % of the token limit, from its documentation: the
CLI is closed source), the one setting that carries it (export_form.py) and where it keeps its logs."""

from compaction.agents.base import Agent
from compaction.agents.copilot_cli import export_form, knobs, log, preset
from compaction.agents.copilot_cli.markers import CHECKPOINT_OPENING, SUMMARY_PREFIX
from compaction.corpus.homes import Home
from compaction.export.base import Form
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "Copilot CLI"


def _session(_chain: tuple[str, ...], _name: str) -> str | None:
    """`~/.copilot/session-state/<session id>/events.jsonl`: the path names the session, not the project;
    the working directory in its session.start event does, once read."""
    return None


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a GitHub Copilot CLI session log (~/.copilot/session-state/<id>/events.jsonl), "
                    "or its --output-format json output", (".jsonl",), None, log.load, None, log.looks_like,
                    lines_rank=250, aliases=("copilot",)),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "Copilot CLI environment", f"Copilot CLI's {export_form.VARIABLE}, the one setting of its "
                "compaction (copilot-cli)", export_form.STRATEGIES, export_form.render),),
    homes=(Home(TITLE, (".copilot", "session-state"), ("events.jsonl",), _session),),
    summary_prefixes=(SUMMARY_PREFIX, CHECKPOINT_OPENING),
)

"""Pi (badlogic/pi-mono's coding agent): its session file (log/: the branch Pi is at, one call per assistant
message with its usage and Pi's own cost, its compaction entries), its preset (preset.py: the window less
reserveTokens, keeping about keepRecentTokens), its settings.json block as the export form
(export_form.py), where it keeps its sessions and how its summaries open."""

from compaction.agents.base import Agent
from compaction.agents.pi import export_form, knobs, log, preset
from compaction.agents.pi.markers import SUMMARY_PREFIX
from compaction.corpus.homes import Home
from compaction.export.base import Form
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "Pi"


def _project(chain: tuple[str, ...], _name: str) -> str | None:
    """`~/.pi/agent/sessions/--home-ana-shop--/<time>_<uuid>.jsonl`: the folder is the working directory with
    its slashes written as dashes, the project's name as the header's cwd gives it once read
    (`-home-ana-shop`); None elsewhere."""
    folder = chain[-1] if chain else ""
    return "-" + folder.strip("-") if folder.startswith("--") and folder.endswith("--") else None


AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a Pi coding agent session (~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl)",
                    (".jsonl",), None, log.load, None, log.looks_like, lines_rank=260,
                    aliases=("pi-coding-agent",)),),
    presets=preset.SPECS,
    own_preset=NAME,
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "Pi settings.json", "Pi's settings.json compaction.reserveTokens and keepRecentTokens (pi)",
                export_form.STRATEGIES, export_form.render),),
    homes=(Home(TITLE, (".pi", "agent", "sessions"), ("*.jsonl",), _project),),
    summary_prefixes=(SUMMARY_PREFIX,),
)

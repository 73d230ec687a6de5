"""OpenHands: its trajectories and evaluation outputs (log.py), its condensers as presets (condensers.py)
and its condenser config as the export form (export_form.py), and its summary's words."""

from compaction.agents.base import Agent
from compaction.agents.openhands import condensers, export_form, knobs, log
from compaction.agents.openhands.markers import BROWSER_OMITTED, CONDENSATION_PREFIX
from compaction.export.base import Form
from compaction.importers import runs
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "OpenHands"

AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "an OpenHands trajectory (the exported event list, or an evaluation's "
                    "output.jsonl)", (".json", ".jsonl"), log.from_json,
                    runs.first_run_of(NAME, log.from_json, runs.whole_line), log.looks_like,
                    runs.runs_of(log.looks_like, runs.whole_line), document_rank=400, lines_rank=500),),
    presets=condensers.SPECS,
    own_preset="openhands-pipeline",  # the condensers the OpenHands app turns on by default
    knobs=knobs.KNOBS,
    forms=(Form(NAME, "OpenHands condenser", "an OpenHands condenser config: config.toml's [condenser], or JSON for "
                "the pipeline (openhands-*)", export_form.STRATEGIES, export_form.render),),
    summary_prefixes=(CONDENSATION_PREFIX,),
    placeholders=(BROWSER_OMITTED,),
)

"""SWE-agent: its trajectories (log.py), and the hybrid of the Complexity Trap that was measured on it
(hybrid.py: its observation masking with a late summary)."""

from compaction.agents.base import Agent
from compaction.agents.swe_agent import hybrid, log
from compaction.agents.swe_agent.markers import ELIDED_OPENING
from compaction.importers import runs
from compaction.importers.formats import Format

NAME, TITLE = log.FORMAT, "SWE-agent"

AGENT = Agent(
    NAME, TITLE,
    formats=(Format(NAME, TITLE, "a SWE-agent trajectory (.traj)", (".traj", ".json", ".jsonl"), log.from_json,
                    runs.first_run_of(NAME, log.from_json, runs.whole_line), log.looks_like,
                    runs.runs_of(log.looks_like, runs.whole_line), document_rank=300, lines_rank=600),),
    presets=hybrid.SPECS,
    placeholders=(ELIDED_OPENING,),
)

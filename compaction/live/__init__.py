"""Following an agent's log while it is written, and forecasting its next compaction.

One idea per module:
- tail.py: the bytes added to a file since the last offset, whole lines only; truncation, rewrites and
  replacement noticed; sources.py: those lines as JSON objects, or a Gemini CLI recording read whole;
- claude_code_lines.py, codex_lines.py, gemini_lines.py (gemini_messages.py): each format's lines as
  the same few events (events.py): a model call, a compaction, text written, a fact;
- calls.py, session.py: what is kept of the session: per-call columns of numbers, one record per
  compaction, the recent growth and a few counters, never the messages' text;
- rules.py: each agent's checked preset as a threshold and what it keeps; forecast.py, costs.py: how far
  the compaction is, in tokens and calls, and what it will cost against going on;
- follower.py: the poll that ties them; places.py: which files may be followed, and where agents keep
  their logs; report.py: an update as a line of text or a JSON object (`compaction watch`).
"""

from compaction.live.follower import FORMATS, Follower, Reported
from compaction.live.forecast import Forecast, forecast
from compaction.live.rules import WHAT_IF, agent_rule, rule_for

__all__ = ["FORMATS", "WHAT_IF", "Follower", "Forecast", "Reported", "agent_rule", "forecast", "rule_for"]

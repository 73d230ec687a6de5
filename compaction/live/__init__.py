"""Following an agent's log while it is written, and forecasting its next compaction.

One idea per module:
- tail.py: the bytes added to a file since the last offset, whole lines only; truncation, rewrites and
  replacement noticed; sources.py: those lines as JSON objects, or a recording rewritten whole;
- formats.py: the logs that can be followed, each agent's reader of its lines (in its own package,
  compaction/agents/) giving the same few events (events.py): a model call, a compaction, text written,
  a fact;
- calls.py, session.py: what is kept of the session: per-call columns of numbers, one record per
  compaction, the recent growth and a few counters, never the messages' text;
- rules.py: each checked preset as a threshold and what it keeps (the agents register theirs); forecast.py, costs.py: how far
  the compaction is, in tokens and calls, and what it will cost against going on; composition.py: what
  fills the context now, as far as the follower knows, and what the next compaction would take;
- follower.py: the poll that ties them; places.py: which files may be followed, and where agents keep
  their logs; report.py: an update as a line of text or a JSON object (`compaction watch`).
"""

from compaction.live.calls import Call
from compaction.live.composition import LIVE_KINDS, LIVE_TITLES, LiveComposition, live_composition
from compaction.live.follower import Follower, Reported
from compaction.live.forecast import Forecast, forecast, range_label
from compaction.live.formats import LiveFormat, document_format, live_format, live_formats, names, titles
from compaction.live.places import Offered, agent_sessions, followable
from compaction.live.rules import RuleForm, agent_rule, rule_for, rule_form, what_if
from compaction.live.session import LiveSession

__all__ = ["Call", "Follower", "Forecast", "LIVE_KINDS", "LIVE_TITLES", "LiveComposition", "LiveFormat", "LiveSession",
           "Offered", "Reported", "RuleForm", "agent_rule", "agent_sessions", "document_format", "followable", "forecast",
           "live_composition", "live_format", "live_formats", "names", "range_label", "rule_for", "rule_form", "titles",
           "what_if"]

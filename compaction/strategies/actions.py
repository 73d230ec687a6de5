"""The actions strategies declare (spec.Action): one object per name, so every strategy that snips,
masks or summarises says so in the same words. A new action is one line here and its name in the
declaring spec's `actions`."""

from compaction.strategies.spec import Action

L3 = Action("L3", "L3 saved a big output to disk")
L1 = Action("L1", "L1 snipped the middle")
L2 = Action("L2", "L2 placeholders for old tool results")
L4 = Action("L4", "L4 summary")
MASK = Action("mask", "old outputs masked")
SUMMARY = Action("summary", "older messages summarised")
PERSIST = Action("persist", "a big output saved to a file")
MICROCOMPACT = Action("microcompact", "microcompact cleared old tool results")
AUTO_COMPACT = Action("auto_compact", "auto-compact summary")
CLEAR_TOOL_USES = Action("clear_tool_uses", "old tool results cleared in this request")
CLEAR_THINKING = Action("clear_thinking", "old thinking cleared in this request")
COMPACT = Action("compact", "compaction block (server-side summary)")
FORGET = Action("forget", "middle of the history forgotten")
CONDENSE = Action("condense", "older half condensed into a summary")

# What the replay loop itself does, whatever the strategy
REACTIVE = Action("reactive", "reactive compaction (over the model window)")
COMPACT_TOOL = Action("compact_tool", "the model called the compact tool")
# the person's own /compact or /clear, where the log records one: every what-if does it (person.py)
PERSON_COMPACTION = Action("person_compaction", "the person's own /compact or /clear (as the log records it)")
LOOP_ACTIONS = (REACTIVE, COMPACT_TOOL, PERSON_COMPACTION)
LOG_COMPACTION = Action("log_compaction", "the agent's own compaction (as its log records it)")

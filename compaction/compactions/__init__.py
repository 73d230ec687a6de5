"""Each of the log's own compactions, opened (cards.py): when and why, the tokens before and after, what it
replaced, what it carried on (carried.py, read by each agent's own package where it knows more), what it
cost (cost.py), what the agent read again because it was lost (reread.py), and the agent's own preset
beside it (preset.py). The CLI's `compactions`, the Compactions page and the report show these cards."""

from compaction.compactions.cards import CompactionCard, compaction_cards, log_boundaries
from compaction.compactions.carried import ENCRYPTED, CarriedOn
from compaction.compactions.cost import CompactionCost
from compaction.compactions.preset import PresetBeside, own_preset, presets_beside
from compaction.compactions.reread import Reread

__all__ = ["ENCRYPTED", "CarriedOn", "CompactionCard", "CompactionCost", "PresetBeside", "Reread",
           "compaction_cards", "log_boundaries", "own_preset", "presets_beside"]

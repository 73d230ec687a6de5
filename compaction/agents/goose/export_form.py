"""The `goose` form: Goose's config.yaml key for its auto-compaction, GOOSE_AUTO_COMPACT_THRESHOLD (also read
from the environment), at the threshold the replay used."""

from compaction.agents.goose.preset import THRESHOLD
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("goose",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    threshold = params["threshold"]
    text = f"# Goose, config.yaml: auto-compaction as tuned in Compaction Lab (strategy goose)\n" \
           f"GOOSE_AUTO_COMPACT_THRESHOLD: {threshold:g}\n"
    notes = [f"Put the key in ~/.config/goose/config.yaml, or export GOOSE_AUTO_COMPACT_THRESHOLD={threshold:g}."]
    if threshold == THRESHOLD:
        notes.append(f"{THRESHOLD:g} is Goose's own default (context_mgmt/mod.rs DEFAULT_COMPACTION_THRESHOLD).")
    if not 0 < threshold < 1:
        notes.append("A threshold of 0 or 1 turns Goose's auto-compaction off.")
    if params["window_tokens"]:
        notes.append(f"The context limit ({params['window_tokens']:,} tokens) is the model's: set GOOSE_CONTEXT_LIMIT "
                     "to change it.")
    return Exported("goose", built.spec.name, text, "config.yaml", "yaml", tuple(notes))

"""The `copilot-cli` form: what of a tuned Copilot CLI compaction a person can set. Only the token limit
of a model of one's own provider (the environment variable COPILOT_PROVIDER_MAX_PROMPT_TOKENS) is a
setting; the 95 % share is not, and the form says so rather than invent a key."""

from compaction.agents.copilot_cli.preset import THRESHOLD
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("copilot-cli",)
VARIABLE = "COPILOT_PROVIDER_MAX_PROMPT_TOKENS"


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    window, share = params["window_tokens"], params["threshold_fraction"]
    lines = ["# GitHub Copilot CLI: automatic compaction as tuned in Compaction Lab (strategy copilot-cli)"]
    lines.append(f"export {VARIABLE}={window}" if window else
                 f"# the token limit is Copilot's own for the model: no variable to set ({VARIABLE} only "
                 "applies to a model of your own provider)")
    notes = []
    if window:
        notes.append(f"{VARIABLE} gives Copilot the token limit of a model served by your own provider "
                     "(COPILOT_PROVIDER_BASE_URL); for GitHub's models Copilot uses its own limit.")
    if share != THRESHOLD:
        lines.append(f"# compaction at {share:.0%} of the limit: Copilot CLI has no setting for it")
    notes.append(f"Cannot be set in Copilot CLI: the share of the limit at which it compacts ({THRESHOLD:.0%}, "
                 "documented, closed source)" + (f"; the {share:.0%} tuned here can only be had by running "
                                                  "/compact by hand." if share != THRESHOLD else "."))
    return Exported("copilot-cli", built.spec.name, "\n".join(lines) + "\n", "copilot-cli.env", "bash",
                    tuple(notes))

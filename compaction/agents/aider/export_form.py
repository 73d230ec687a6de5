"""The `aider` form: Aider's `.aider.conf.yml` key for its chat-history summarisation,
`max-chat-history-tokens`, at the limit the replay used (the one set, or aider's default for the window)."""

from compaction.agents.aider.preset import history_limit
from compaction.export.base import Exported
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("aider",)


def render(built: Built, settings: Settings) -> Exported:
    params = built.params
    limit = history_limit(params)
    text = "\n".join([
        "# Aider, .aider.conf.yml: chat-history summarisation as tuned in Compaction Lab (strategy aider)",
        f"max-chat-history-tokens: {limit}",
    ]) + "\n"
    notes = [f"Put the key in .aider.conf.yml in your home folder or the repository's root (or pass "
             f"--max-chat-history-tokens {limit}); Aider summarises the chat history once it passes {limit:,} tokens."]
    if not params["max_chat_history_tokens"]:
        notes.append(f"{limit:,} is Aider's own default for a model of {params['window_tokens']:,} input tokens; without "
                     "the key Aider works it out from the model it runs.")
    notes.append("Cannot be set in Aider: the share kept whole (under half the limit, aider/history.py) and the "
                 "model's window, which comes from its metadata (.aider.model.metadata.json, max_input_tokens), "
                 "as the summariser's does from the weak model's (--weak-model).")
    return Exported("aider", built.spec.name, text, ".aider.conf.yml", "yaml", tuple(notes))

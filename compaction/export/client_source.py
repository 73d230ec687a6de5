"""The `client` form, for every strategy: the construction of the lab's own compacting client
(compaction.client.CompactingClient) at the tuned parameters, as Python source. The agent then sends each
call through it and the history is compacted exactly as the replay showed, trace included."""

from compaction.export.base import Exported, effective_settings
from compaction.model.settings import DEFAULTS, Settings
from compaction.strategies import Built

STRATEGIES = None  # every strategy (but the log's own, which no agent can follow)
TRACE = "compaction-trace.jsonl"


def client_settings(built: Built, settings: Settings) -> dict:
    """What `settings=` must hold: the strategy's parameters (for the tutorial's three, the settings they
    read), and REACTIVE_KEEP_LAST when it is not the default (every strategy's reactive compaction reads it)."""
    if built.spec.from_settings:
        chosen = effective_settings(built, settings)
        read = built.spec.settings_read
        names = [p.name for p in built.spec.params] if read is None else sorted(read)
        values = {name: getattr(chosen, name) for name in names}
    else:
        chosen = settings
        values = {name: list(value) if isinstance(value, tuple) else value for name, value in built.params.items()}
    if chosen.reactive_keep_last != DEFAULTS.reactive_keep_last:
        values["reactive_keep_last"] = chosen.reactive_keep_last
    return values


def render(built: Built, settings: Settings) -> Exported:
    values = client_settings(built, settings)
    lines = [f"# The compacting client of Compaction Lab, as tuned (strategy {built.spec.name})",
             "import anthropic", "", "from compaction.client import CompactingClient", "",
             "client = CompactingClient(", "    anthropic.Anthropic(),", f"    strategy={built.spec.name!r},",
             "    settings={"]
    lines += [f"        {name!r}: {value!r}," for name, value in values.items()]
    lines += ["    },", f"    trace={TRACE!r},  # one line per call; `compaction replay` reads it back", ")", "",
              "# response = client.messages.create(model=..., max_tokens=..., messages=messages, tools=tools)"]
    return Exported("client", built.spec.name, "\n".join(lines) + "\n", "compacting_client.py", "python", (
        "Needs compaction-lab with the claude extra: pip install 'compaction-lab[claude]'.",
        "Pass the whole conversation to client.messages.create at every call, as with the SDK: the client keeps "
        "what the strategy left and sends that.",
    ))

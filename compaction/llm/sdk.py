"""The `anthropic` SDK, which only the `claude` extra installs: the engine imports without it, and
whatever needs Claude says how to get it."""

from compaction.errors import CompactionError

try:
    import anthropic
except ImportError:  # without the extra nothing calls Claude; a key given then gets require_sdk's message
    anthropic = None

MISSING = "Claude needs the anthropic package: pip install 'compaction-lab[claude]'"


def require_sdk():
    """The anthropic module, or a CompactionError saying how to install it."""
    if anthropic is None:
        raise CompactionError(MISSING)
    return anthropic

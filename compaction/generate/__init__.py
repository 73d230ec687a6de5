"""Generated conversations: the seed document's demo and realistic coding sessions.

`generate("seed-demo")` or `generate("realistic", turns=..., typical_output=..., max_output=...,
parallel_share=..., seed=...)`; both return Anthropic-form messages valid per check_pairs.
"""

from compaction.errors import SettingsError
from compaction.generate.realistic import realistic_session
from compaction.generate.seed_demo import seed_demo

KINDS = ("seed-demo", "realistic")


def generate(kind: str = "realistic", **knobs) -> list[dict]:
    """Messages of the given kind; `knobs` go to realistic_session (the seed demo takes none)."""
    if kind == "seed-demo":
        if knobs:
            raise SettingsError(f"the seed demo takes no settings, got {', '.join(sorted(knobs))}")
        return seed_demo()
    if kind == "realistic":
        try:
            return realistic_session(**knobs)
        except TypeError as exc:  # an unknown knob name: say which ones exist
            raise SettingsError(f"{exc}; realistic takes turns, typical_output, max_output, "
                                "parallel_share, seed") from None
    raise SettingsError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")


__all__ = ["KINDS", "generate", "realistic_session", "seed_demo"]

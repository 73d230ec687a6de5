"""What Tune sweeps of OpenHands: its default condenser pipeline's max_size (config.toml's [condenser]
max_size: the events kept before it condenses), from a sixth of its default to three times it, and no
further than the session's length."""

from compaction.agents.openhands.condensers import PIPELINE
from compaction.strategies.knobs import Knob, Regime, around

FACTORS = (1 / 6, 1 / 3, 1 / 2, 2 / 3, 1, 4 / 3, 2, 3)
DEFAULT = PIPELINE.param("max_size").default


def _sizes(regime: Regime) -> tuple[int, ...]:
    return around(DEFAULT, FACTORS, 20, max(regime.messages, DEFAULT))


KNOBS = (Knob("max_size", "the events kept before the condenser acts ([condenser] max_size)", _sizes,
              lambda _regime: DEFAULT),)

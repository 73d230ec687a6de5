"""Ways to keep an agent's context small before each model call, all of one shape so a replay can run
any of them: `step(history, settings, store, summarizer) -> Step` (base.py).

The registry: every strategy by its stable name, with its parameters, defaults and sources (spec.py).
The generic families are entered here: the tutorial's pipeline and its first two peers (tutorial.py),
the log's own compactions (as_recorded.py), the Anthropic API's context management and LangChain's
middleware. Each agent's presets are registered by its package (compaction/agents/). `build(name,
params)` gives a step function at those parameters.
"""

from collections.abc import Mapping
from typing import Any

from compaction.errors import SettingsError
from compaction.strategies import anthropic_api, as_recorded, langchain, tutorial
from compaction.strategies.actions import LOOP_ACTIONS
from compaction.strategies.base import Step, StepFunction, summaries_made
from compaction.strategies.knobs import Knob, Regime, compaction_point, regime_params
from compaction.strategies.params import Param
from compaction.strategies.person import PERSON_TRIGGERS
from compaction.strategies.spec import Action, Built, Source, StrategySpec
from compaction.strategies.tutorial import masking_step, pipeline_step, summary_keep_last_step

REGISTRY: dict[str, StrategySpec] = {}

# Each strategy at its defaults (the tutorial's three read the Settings they are called with).
STRATEGIES: dict[str, StepFunction] = {}

# The settings a strategy reads besides REACTIVE_KEEP_LAST (which every replay reads): a sweep
# reuses one replay for cells that differ only in the others. None: it may read any.
SETTINGS_READ: dict[str, frozenset[str] | None] = {}


def register(spec: StrategySpec) -> StrategySpec:
    """Enter a strategy (an agent's package calls this for its presets); a name taken twice is a
    programming error."""
    if spec.name in REGISTRY:
        raise ValueError(f"the strategy {spec.name!r} is registered already")
    REGISTRY[spec.name] = spec
    STRATEGIES[spec.name] = spec.build()
    SETTINGS_READ[spec.name] = spec.settings_read
    return spec


for _spec in (*tutorial.SPECS, *as_recorded.SPECS, *anthropic_api.SPECS, *langchain.SPECS):
    register(_spec)


def all_actions() -> dict[str, Action]:
    """Every action a replay may record, by name, in the order legends list them: the strategies' own,
    then the loop's (reactive compaction, the compact tool)."""
    found = {action.name: action for spec in REGISTRY.values() for action in spec.actions}
    found.update((action.name, action) for action in LOOP_ACTIONS)
    return found


def lookup(name: str) -> StrategySpec:
    if name not in REGISTRY:
        raise SettingsError(f"unknown strategy {name!r}; choose one of {', '.join(REGISTRY)}")
    return REGISTRY[name]


def build(name: str, params: Mapping[str, Any] | None = None) -> Built:
    """The named strategy's step function at `params` (checked; SettingsError names what is wrong)."""
    return lookup(name).build(params)


def resolve(strategy: "str | StepFunction") -> tuple[str, StepFunction]:
    """(name, step function) for a strategy name or a step function."""
    if callable(strategy):
        return getattr(strategy, "__name__", "custom"), strategy
    lookup(strategy)
    return strategy, STRATEGIES[strategy]


__all__ = ["PERSON_TRIGGERS", "Action", "Built", "Knob", "Param", "REGISTRY", "Regime", "SETTINGS_READ", "STRATEGIES", "Source", "Step", "StepFunction", "StrategySpec", "all_actions", "build", "compaction_point", "lookup", "masking_step", "pipeline_step", "regime_params", "register", "resolve", "summaries_made", "summary_keep_last_step"]

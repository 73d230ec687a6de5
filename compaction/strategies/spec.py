"""A strategy as the registry describes it: names, one plain sentence, parameters with their
documented defaults, sources, what is known only from reverse engineering, and `build(params)`.

The Compare page, `python -m compaction strategies` and docs/strategies.md all read these.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from compaction.errors import SettingsError
from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.storage.outputs import OutputStore
from compaction.strategies.base import Step, StepFunction
from compaction.strategies.params import Param
from compaction.summarizers import Summarizer


@dataclass(frozen=True)
class Source:
    label: str
    url: str


@dataclass(frozen=True)
class Action:
    """Something a strategy can do to the history before a call, as `Step.acted` names it."""

    name: str  # stable: replay records, JSON totals and the replay chart's lanes use it
    title: str  # for legends: "L1 snipped the middle"


@dataclass(frozen=True)
class StrategySpec:
    name: str  # stable: CLI, URLs and JSON use it
    label: str  # short, for legends and tables
    title: str  # the full name
    family: str
    description: str  # one sentence in plain words
    params: tuple[Param, ...]
    make: Callable[[dict[str, Any]], StepFunction]
    sources: tuple[Source, ...]
    actions: tuple[Action, ...] = ()  # every name its steps may put in `acted`
    reverse_engineered: tuple[str, ...] = ()  # behaviours known only from public reverse engineering
    notes: tuple[str, ...] = ()  # how the system's behaviour maps onto a replay of our messages
    # True: a parameter not given comes from the Settings the step is called with (the tutorial's
    # strategies, whose knobs are the sidebar's and the CLI's settings); False: from its default here
    from_settings: bool = False
    # the Settings fields the step reads besides REACTIVE_KEEP_LAST (None: any), for the sweep's reuse
    settings_read: frozenset[str] | None = frozenset()
    rule: Callable[[dict[str, Any]], str | None] | None = None  # a cross-parameter check: the problem or None
    # its incremental form at given parameters, for the incremental replay (replay/incremental.py): an
    # object with `settings(settings)` (the settings it reads) and `(running, reads, store, summarizer)
    # -> CallDone`; None: the reference loop runs its step on the whole history at every call
    incremental: Callable[[dict[str, Any]], Any] | None = None
    # True: it sends what the agent sent (the log's own compactions): the loop never compacts a call of it
    # reactively whose tokens the log records, whatever model window is set, since the model took that call
    follows_log: bool = False
    # an agent's preset whose compaction is a threshold on tokens: the parameters that move nothing but that
    # threshold, and the threshold at given parameters on a conversation (the function its step compares
    # with, Step.compared); a sweep of them runs its cells together until they part (sweep/thresholds.py)
    threshold_params: tuple[str, ...] = ()
    threshold: Callable[[dict[str, Any], History], int] | None = None

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        known = ", ".join(p.name for p in self.params) or "none"
        raise SettingsError(f"{self.name} has no parameter {name!r}; its parameters are {known}")

    def defaults(self) -> dict[str, Any]:
        return {param.name: param.default for param in self.params}

    def resolve(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The checked parameters: `given` over the defaults (only `given` for a settings strategy)."""
        checked = {name.replace("-", "_"): value for name, value in (given or {}).items()}
        checked = {name: self.param(name).check(value, self.name) for name, value in checked.items()}
        values = checked if self.from_settings else {**self.defaults(), **checked}
        problem = self.rule(values) if self.rule else None
        if problem:
            raise SettingsError(f"{self.name}: {problem}")
        return values

    def parse(self, pairs: Iterable[str]) -> dict[str, Any]:
        """'KEY=VALUE' texts (the command line's --param) as checked values."""
        values: dict[str, Any] = {}
        for pair in pairs:
            key, equals, text = pair.partition("=")
            key = key.strip().replace("-", "_")
            if not equals or not key:
                raise SettingsError(f"--param must look like KEY=VALUE (e.g. {self._example()}), got {pair!r}")
            values[key] = self.param(key).parse(text, self.name)
        return values

    def build(self, given: Mapping[str, Any] | None = None) -> "Built":
        params = self.resolve(given)
        return Built(self, params, self.make(params))

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "title": self.title, "family": self.family,
                "description": self.description, "parameters": [p.as_dict() for p in self.params],
                "defaults_from_settings": self.from_settings,
                "sources": [{"label": s.label, "url": s.url} for s in self.sources],
                "reverse_engineered": list(self.reverse_engineered), "notes": list(self.notes)}

    def _example(self) -> str:
        return f"{self.params[0].name}={self.params[0].default}" if self.params else "name=value"


class Built:
    """A strategy's step function at given parameters. A replay names its result after `__name__`."""

    def __init__(self, spec: StrategySpec, params: dict[str, Any], step: StepFunction):
        self.spec = spec
        self.params = params
        self.__name__ = spec.name
        self._step = step

    def __call__(self, history: History, settings: Settings, store: OutputStore | None = None,
                 summarizer: Summarizer | None = None) -> Step:
        if self.spec.follows_log:  # As recorded does every compaction of the log, the person's among them
            return self._step(history, settings, store, summarizer)
        from compaction.strategies.person import person_step  # person.py builds on this module's Step

        person = person_step(history)  # the person's own /compact or /clear happens in every what-if
        done = self._step(person.history, settings, store, summarizer)
        if not person.acted:
            return done
        return replace(done, acted=(*person.acted, *done.acted), events=(*person.events, *done.events))

    @property
    def incremental(self):
        """The strategy's incremental form at these parameters, or None (see StrategySpec.incremental)."""
        return self.spec.incremental(self.params) if self.spec.incremental is not None else None

    @property
    def settings_read(self) -> frozenset[str] | None:
        read = self.spec.settings_read
        if read is None or not self.spec.from_settings:
            return read
        return read - set(self.params)  # a parameter given overrides its setting

    def __repr__(self) -> str:
        return f"Built({self.spec.name!r}, {self.params!r})"

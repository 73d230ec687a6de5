"""The four layers in the tutorial's order: L3 persist -> L1 snip -> L2 placeholders -> L4 summary
(only when the history is still over CONTEXT_LIMIT). Cheap layers first, the LLM last."""

from dataclasses import dataclass, field

from compaction.layers.micro import micro_compact
from compaction.layers.persist import tool_result_budget
from compaction.layers.snip import snip_compact
from compaction.layers.summary import compact_history
from compaction.model.events import LayerResult, PersistedOutput, Placeholder, SnippedRange, SummaryEvent
from compaction.model.history import History, prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.validity import PairProblem
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer

LAYERS = ("input", "L3", "L1", "L2", "L4")
LAYER_TITLES = {
    "input": "Input",
    "L3": "L3 persist large outputs",
    "L1": "L1 snip the middle",
    "L2": "L2 placeholders for old results",
    "L4": "L4 LLM summary",
}


@dataclass(frozen=True)
class Stage:
    layer: str
    history: History
    triggered: bool = True  # False for an L4 stage that did not fire

    @property
    def messages(self):
        return self.history.messages

    @property
    def size(self) -> int:
        return self.history.size

    @property
    def count(self) -> int:
        return len(self.history.messages)

    @property
    def tokens(self) -> int:
        return self.history.tokens


@dataclass
class PipelineResult:
    settings: Settings
    stages: list[Stage]
    persisted: list[PersistedOutput] = field(default_factory=list)
    snipped: list[SnippedRange] = field(default_factory=list)
    placeholders: list[Placeholder] = field(default_factory=list)
    summary: SummaryEvent | None = None
    problems: list[PairProblem] = field(default_factory=list)  # broken pairs in the final history

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def input_problems(self) -> list[PairProblem]:
        """Broken pairs in the input: checked once per prepared conversation, when first asked."""
        return self.stages[0].history.pair_problems()

    def stage(self, layer: str) -> Stage:
        return next(s for s in self.stages if s.layer == layer)

    @property
    def saved(self) -> int:
        return self.stages[0].size - self.final.size


def l4_reason(history: History, settings: Settings) -> tuple[bool, str]:
    size = history.size  # the messages, as the tutorial measures them; L4 cannot shrink the system prompt
    if size > settings.context_limit:
        return True, f"{size:,} characters after L2 > CONTEXT_LIMIT {settings.context_limit:,}"
    return False, f"{size:,} characters after L2 <= CONTEXT_LIMIT {settings.context_limit:,}"


@dataclass
class LayerRun:
    """Each layer's output of one run, before any Stage is built: the replay's step reads these at
    every call and needs neither the stages nor the text of an L4 that did not fire."""

    after_l3: LayerResult
    after_l1: LayerResult
    after_l2: LayerResult
    after_l4: LayerResult | None  # None when the history after L2 was within CONTEXT_LIMIT


def run_layers(history: History, settings: Settings, store: OutputStore,
               summarizer: Summarizer | None) -> LayerRun:
    """L3 -> L1 -> L2 -> (L4) on a prepared history."""
    after_l3 = tool_result_budget(history, settings, store)
    after_l1 = snip_compact(after_l3.history, settings)
    after_l2 = micro_compact(after_l1.history, settings)
    after_l4 = None
    if after_l2.history.size > settings.context_limit:
        after_l4 = compact_history(after_l2.history, summarizer, store, l4_reason(after_l2.history, settings)[1],
                                   settings=settings)
    return LayerRun(after_l3, after_l1, after_l2, after_l4)


def run_pipeline(conversation, settings: Settings | None = None, store: OutputStore | None = None,
                 summarizer: Summarizer | None = None, check: bool = True) -> PipelineResult:
    """Run L3 -> L1 -> L2 -> (L4) on a message list, a Conversation or a prepared History.

    Nothing the caller passed is changed. `check=False` skips the check of the final history (the
    replay checks only what it sends).
    """
    settings = settings or DEFAULTS
    history = prepare(conversation)
    store = store or OutputStore.temporary()
    run = run_layers(history, settings, store, summarizer)
    result = PipelineResult(settings, [Stage("input", history), Stage("L3", run.after_l3.history),
                                       Stage("L1", run.after_l1.history), Stage("L2", run.after_l2.history)],
                            run.after_l3.events, run.after_l1.events, run.after_l2.events)
    if run.after_l4 is not None:
        result.summary = run.after_l4.events[0]
        result.stages.append(Stage("L4", run.after_l4.history, triggered=True))
    else:
        result.summary = SummaryEvent(False, l4_reason(run.after_l2.history, settings)[1])
        result.stages.append(Stage("L4", run.after_l2.history, triggered=False))
    if check:
        result.problems = result.final.history.pair_problems()
    return result

"""Goose's auto-compaction (block/goose crates/goose/src/context_mgmt/mod.rs): once the session's newest
call used more than 0.8 of the model's context limit (GOOSE_AUTO_COMPACT_THRESHOLD), the whole
conversation becomes one summary; the model then gets the summary, Goose's own "Your context was
compacted" message, and a copy of the person's newest message."""

import math

from compaction.agents.goose.markers import CONVERSATION_CONTINUATION, SUMMARY_PREFIX, TOOL_LOOP_CONTINUATION
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.history import History
from compaction.model.messages import has_tool_result, has_tool_use
from compaction.model.sizes import message_size
from compaction.strategies import actions
from compaction.strategies.agent_sent import context_through, newest_call
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

THRESHOLD = 0.8  # DEFAULT_COMPACTION_THRESHOLD
COMMIT = "0036b819bdd7dd02042fb6038e946d22ef56d926"
BLOB = f"https://github.com/block/goose/blob/{COMMIT}"
RULE = Source("block/goose: crates/goose/src/context_mgmt/mod.rs line 19 (DEFAULT_COMPACTION_THRESHOLD: f64 = 0.8) "
              "and check_if_compaction_needed (GOOSE_AUTO_COMPACT_THRESHOLD; session.total_tokens / context_limit > "
              "threshold; a threshold <= 0 or >= 1 never compacts)", f"{BLOB}/crates/goose/src/context_mgmt/mod.rs#L19")
COMPACT = Source("block/goose: crates/goose/src/context_mgmt/mod.rs compact_messages (every message hidden from the "
                 "model, the summary, the continuation message, the person's newest message copied)",
                 f"{BLOB}/crates/goose/src/context_mgmt/mod.rs")
CONFIG = Source("Goose configuration: GOOSE_AUTO_COMPACT_THRESHOLD (config.yaml or the environment)",
                "https://block.github.io/goose/docs/guides/config-files")


def person_text(message: dict) -> bool:
    """A message of the person with text and no tool content (compact_messages' has_text_only)."""
    return message.get("role") == "user" and not has_tool_result(message) and not has_tool_use(message) and bool(
        message.get("content"))


NEVER = 1 << 62  # the fewest tokens at which a threshold outside (0, 1) compacts: it does not


def _window(params: dict, history: History) -> int:
    return params["window_tokens"] or history.shared_value(
        "goose_window", lambda: log_window(history.recorded.usage, history.recorded.metadata).tokens)


def compacts_from(params: dict, history: History) -> int:
    """The fewest tokens at which Goose compacts: more than the threshold's share of the window."""
    threshold = params["threshold"]
    return math.floor(threshold * _window(params, history)) + 1 if 0 < threshold < 1 else NEVER


def _goose(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        threshold = params["threshold"]
        position = newest_call(history)
        if position is None:  # no call yet: nothing counted
            return Step(history, compared=(0, compacts_from(params, history)))
        window = _window(params, history)
        tokens = context_through(history, position)  # the session's total_tokens of the newest call
        compared = (tokens, compacts_from(params, history))  # read nowhere else but in the reason
        if not 0 < threshold < 1 or tokens <= threshold * window:
            return Step(history, compared=compared)
        newest = next((p for p in range(len(history.messages) - 1, -1, -1) if person_text(history.messages[p])), None)
        reason = f"the newest call's {tokens:,} tokens > {threshold:g} of {window:,}"
        result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, reason, "auto_compact", summarizer,
                                store)
        if result.history is history:  # the summary failed: Goose keeps the conversation as it was
            return Step(history, ("auto_compact",), tuple(result.events), compared=compared)
        last = newest == len(history.messages) - 1
        notice = {"role": "assistant", "content": CONVERSATION_CONTINUATION if last else TOOL_LOOP_CONTINUATION}
        added = [notice] + ([history.messages[newest]] if newest is not None else [])
        origins = [None] + ([history.origins[newest] if last else None] if newest is not None else [])
        sent = result.history
        sent = sent.derive([*sent.messages, *added], [*sent.sizes, *map(message_size, added)], [*sent.origins, *origins])
        return Step(sent, ("auto_compact",), tuple(result.events), compared=compared)
    return step


GOOSE = StrategySpec(
    name="goose", label="Goose", title="Goose: auto-compaction", family="Goose",
    description="Once the newest call used more than 0.8 of the context limit, summarises the whole conversation; "
                "the summary, Goose's continuation message and the person's newest message are what is sent next.",
    actions=(actions.SUMMARY,),
    params=(
        Param("window_tokens", 0, "int", "The model's context limit (Goose's model config, GOOSE_CONTEXT_LIMIT; 0: the "
              "log's model's).", "tokens", 0, 10_000_000),
        Param("threshold", THRESHOLD, "float", "GOOSE_AUTO_COMPACT_THRESHOLD: compact once the newest call used more "
              "than this share of the limit (0 or 1: never).", "of the window", 0.0, 1.0),
    ),
    make=_goose, sources=(RULE, COMPACT, CONFIG),
    threshold_params=("window_tokens", "threshold"), threshold=compacts_from,
    notes=("Before each call, the context up to the newest reply (Goose reads the newest call's total tokens from the "
           "session) is compared with the threshold; past it every message is summarised, then Goose's assistant "
           "message (\"Your context was compacted. ... Just continue the conversation naturally\" when the person's "
           "message is the newest, \"... Continue calling tools\" in a tool loop) and a copy of the person's newest "
           "message follow. The change is permanent.",
           "Goose summarises with its compaction.md prompt over a text rendering of the messages, retrying with tool "
           "outputs removed from the middle when the summary request is too long; the replay's summariser reads the "
           "messages with the lab's prompt.",
           "Goose also compacts when the provider refuses a request as too long; the replay's reactive compaction "
           "is the lab's own."),
)

SPECS = (GOOSE,)

"""OpenHands' condensers, over our messages: one OpenHands event is taken as one message (a call and
its result are two events; parallel calls, several events there, are one message here).

Observation masking and recent events return a view each step (request-only); amortized forgetting
and LLM summarising record a condensation, so what they forget stays forgotten.
"""

from compaction.agents.openhands.markers import BROWSER_OMITTED, CONDENSATION_PREFIX
from compaction.layers.summary import summarize_into
from compaction.model.events import Placeholder
from compaction.model.history import History, result_positions
from compaction.model.markers import MASK
from compaction.model.messages import content_chars, has_tool_result, has_tool_use
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_beyond_newest, results_of
from compaction.strategies.edits import forget_middle, set_block_field
from compaction.strategies.memo import memo_key, remember, resume
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

REPO = "https://github.com/All-Hands-AI/OpenHands/blob/main/openhands/memory/condenser/impl/"
SDK = "https://github.com/OpenHands/software-agent-sdk/blob/main/openhands-sdk/openhands/sdk/context/condenser/"
CONFIG = Source("OpenHands: openhands/core/config/condenser_config.py (defaults)",
                "https://github.com/All-Hands-AI/OpenHands/blob/main/openhands/core/config/condenser_config.py")
MAX_EVENTS = 10_000_000


def _mask_outside(params: dict):
    key = memo_key("openhands-masking", params)
    window = params["attention_window"]

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        # every result in messages[:boundary] is masked; the boundary only moves forward, so masking what
        # is new between the old and the new boundary gives the same request as masking it all again
        resumed = resume(history, key)
        start = resumed[1] if resumed is not None else 0
        boundary = max(len(history) - window, 0)
        messages, sizes, events = None, None, []
        for position in range(start, boundary):
            for j in result_positions(history, position):
                block = history.messages[position]["content"][j]
                if block.get("content") == MASK and not history.is_original(position):
                    continue
                if messages is None or sizes is None:  # copied together, at the first change
                    messages, sizes = list(history.messages), list(history.sizes)
                events.append(_masked(history, position, block))
                set_block_field(messages, sizes, position, j, "content", MASK)
        done = history if messages is None or sizes is None else history.derive(messages, sizes, list(history.origins))
        remember(done, key, done.messages, max(boundary, start))
        return Step(done, ("mask",) if events else (), tuple(events))
    return step


def _masked(history: History, position: int, block: dict) -> Placeholder:
    tool_use_id = str(block.get("tool_use_id", ""))
    origin = history.origins[position]
    return Placeholder(origin, tool_use_id, history.tool_name(tool_use_id, origin),
                       content_chars(block.get("content", "")), MASK, "mask")


def _recent(params: dict):
    keep_first, max_events = params["keep_first"], params["max_events"]

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if len(history) <= max_events:
            return Step(history)
        forgotten = forget_middle(history, keep_first, max(max_events - keep_first, 0), "forget")
        if forgotten is None:
            return Step(history)
        sent, record = forgotten
        return Step(sent, ("forget",), (record,), carry=history)
    return step


def _amortized(params: dict):
    keep_first, max_size = params["keep_first"], params["max_size"]

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if len(history) <= max_size:
            return Step(history)
        forgotten = forget_middle(history, keep_first, max_size // 2 - keep_first, "forget")
        if forgotten is None:
            return Step(history)
        kept, record = forgotten
        return Step(kept, ("forget",), (record,))
    return step


def safe_boundary(messages: list, index: int) -> int:
    """The first index >= `index` where the history can be cut without splitting a call from its
    results (the SDK's manipulation indices: never between a tool_use and the message answering it)."""
    while 0 < index < len(messages) and has_tool_result(messages[index]) and has_tool_use(messages[index - 1]):
        index += 1
    return min(index, len(messages))


def condense(history: History, params: dict, summarizer, store) -> Step:
    """LLMSummarizingCondenser (the SDK's): over `max_size` messages (or `max_tokens`), summarise the
    messages after the first `keep_first` up to a tail of about half of `max_size`, a summary of
    those (earlier summary included) put in their place."""
    keep_first, max_size, max_tokens = params["keep_first"], params["max_size"], params["max_tokens"]
    count = len(history)
    tails = []
    if count > max_size:
        tails.append(max_size // 2 - keep_first - 1)
    tokens = history.context_tokens if max_tokens else 0
    if max_tokens and tokens > max_tokens:
        tails.append(_tail_for_reduction(history, keep_first, tokens - max_tokens // 2))
    if not tails:
        return Step(history)
    start = safe_boundary(history.messages, keep_first)
    end = safe_boundary(history.messages, count - min(tails))
    forgotten = end - start
    if forgotten <= 0 or forgotten < count * params["minimum_progress"]:
        return Step(history)  # a soft trigger: try again at the next call
    reasons = ([f"{count:,} messages > max_size {max_size:,}"] if count > max_size else []) + \
        ([f"{tokens:,} tokens > max_tokens {max_tokens:,}"] if max_tokens and tokens > max_tokens else [])
    result = summarize_into(history, end, CONDENSATION_PREFIX, "; ".join(reasons) + f"; forgetting {forgotten} messages",
                            "condense", summarizer, store, start=start)
    return Step(result.history, ("condense",), tuple(result.events))


def _tail_for_reduction(history: History, keep_first: int, reduce_by: int) -> int:
    """How many newest messages can stay when the ones after the first `keep_first` go, oldest
    first, until `reduce_by` tokens are gone."""
    tokens = history.token_model.content_tokens
    removed, index = 0, keep_first
    while index < len(history) and removed < reduce_by:
        removed += tokens(history.sizes[index])
        index += 1
    return len(history) - index


def _llm(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        return condense(history, params, summarizer, store)
    return step


def _pipeline(params: dict):
    key = memo_key("openhands-pipeline", params)
    wanted = {tool.lower() for tool in params["browser_tools"]}
    browsing = results_of(lambda name: name.lower() in wanted, BROWSER_OMITTED)
    window = params["browser_attention_window"]
    llm = {"keep_first": params["keep_first"], "max_size": params["max_size"], "max_tokens": 0,
           "minimum_progress": params["minimum_progress"]}

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        history, masked = clear_beyond_newest(history, key, browsing, window, window, lambda block: BROWSER_OMITTED,
                                              "mask")
        condensed = condense(history, llm, summarizer, store)
        acted = (("mask",) if masked else ()) + condensed.acted
        return Step(condensed.history, acted, (*masked, *condensed.events))
    return step


def _half_rule(params: dict) -> str | None:
    extra = 1 if "minimum_progress" in params else 0  # the summarising condensers also keep a summary
    if params["max_size"] // 2 - params["keep_first"] - extra <= 0:
        return "keep_first must be less than max_size // 2 (room is needed for the tail)"
    return None


FIRST_EVENTS = "Messages at the start always kept (the task)."
MASKING = StrategySpec(
    name="openhands-masking", label="OpenHands masking", family="OpenHands",
    actions=(actions.MASK,),
    title="OpenHands ObservationMaskingCondenser",
    description="Replaces the output of every tool result older than the newest 100 messages with `<MASKED>`; "
                "nothing is summarised and no message is dropped.",
    params=(Param("attention_window", 100, "int", "Newest messages (events) whose tool outputs stay whole.",
                  "messages", 1, MAX_EVENTS),),
    make=_mask_outside, sources=(Source("OpenHands: observation_masking_condenser.py",
                                        REPO + "observation_masking_condenser.py"), CONFIG),
    notes=("OpenHands puts a condensation observation in place of the whole observation event, which leaves its "
           "tool call without a result; the replay masks the result's content instead, so every call keeps its "
           "result. The class default window is 5; the configuration's (used here) is 100.",
           "It returns a view each step, but a result that has left the window never comes back, so keeping "
           "the masked history gives the same requests."),
)

RECENT = StrategySpec(
    name="openhands-recent", label="OpenHands recent", family="OpenHands",
    actions=(actions.FORGET,),
    title="OpenHands RecentEventsCondenser",
    description="Sends only the first message and the newest ones, up to 100 messages in all, dropping the middle "
                "of every request without a summary.",
    params=(Param("keep_first", 1, "int", FIRST_EVENTS, "messages", 0, MAX_EVENTS),
            Param("max_events", 100, "int", "Most messages (events) sent.", "messages", 1, MAX_EVENTS)),
    make=_recent, sources=(Source("OpenHands: recent_events_condenser.py", REPO + "recent_events_condenser.py"),
                           CONFIG),
    notes=("Each step's view is cut from the full history, so the replay keeps the whole history and sends the "
           "cut one. The cuts move to keep tool pairs whole (OpenHands' own cut does not).",
           "With fewer messages than `max_events` OpenHands' slice repeats the first events; the replay sends the "
           "history unchanged instead."),
)

AMORTIZED = StrategySpec(
    name="openhands-amortized", label="OpenHands forgetting", family="OpenHands",
    actions=(actions.FORGET,),
    title="OpenHands AmortizedForgettingCondenser",
    description="When the history passes 100 messages, forgets the middle for good, keeping the first message and "
                "the newest half.",
    params=(Param("max_size", 100, "int", "Forget once the history has more messages (events) than this.",
                  "messages", 2, MAX_EVENTS),
            Param("keep_first", 1, "int", FIRST_EVENTS, "messages", 0, MAX_EVENTS)),
    make=_amortized, rule=_half_rule,
    sources=(Source("OpenHands: amortized_forgetting_condenser.py", REPO + "amortized_forgetting_condenser.py"),
             CONFIG),
    notes=("Keeps `keep_first` messages and the newest `max_size // 2 - keep_first`; the cuts move to keep tool "
           "pairs whole. A condensation is recorded, so the forgotten messages stay forgotten.",),
)

LLM = StrategySpec(
    name="openhands-llm", label="OpenHands summary", family="OpenHands",
    actions=(actions.CONDENSE,),
    title="OpenHands LLMSummarizingCondenser (agent SDK)",
    description="When the history passes 240 messages, summarises the older half (after the first two messages) "
                "into one summary message, earlier summary included.",
    params=(Param("max_size", 240, "int", "Condense once the history has more messages (events) than this.",
                  "messages", 1, MAX_EVENTS),
            Param("keep_first", 2, "int", FIRST_EVENTS, "messages", 0, MAX_EVENTS),
            Param("max_tokens", 0, "int", "Also condense over this many tokens, down to half of it (0: off).",
                  "tokens", 0, MAX_EVENTS),
            Param("minimum_progress", 0.1, "float", "Skip a condensation that would forget less than this share "
                  "of the messages.", "of the messages", 0.0, 0.99)),
    make=_llm, rule=_half_rule,
    sources=(Source("OpenHands agent SDK: llm_summarizing_condenser.py", SDK + "llm_summarizing_condenser.py"),
             Source("OpenHands agent SDK: condenser README", SDK + "README.md")),
    notes=("Forgets messages[keep_first : len - (max_size // 2 - keep_first - 1)], both ends moved forward to the "
           "next place that does not split a call from its result (the SDK's manipulation indices), and puts the "
           "summary where they were. The earlier summary sits right after the first messages, so it is summarised "
           "again with the rest, as in OpenHands.",
           "The SDK's default agent uses max_size 80 and keep_first 4; the class defaults (used here) are 240 and 2. "
           f"The summary is a user message starting `{CONDENSATION_PREFIX}`."),
)

PIPELINE = StrategySpec(
    name="openhands-pipeline", label="OpenHands default", family="OpenHands",
    actions=(actions.MASK, actions.CONDENSE),
    title="OpenHands' default condenser pipeline (browser masking, then LLM summarising)",
    description="Masks all but the two newest browser outputs, then summarises the older half of the history once "
                "it passes 120 messages: the condensers the OpenHands app turns on by default.",
    params=(Param("browser_attention_window", 2, "int", "Newest browser outputs kept whole.", "tool results", 1,
                  MAX_EVENTS),
            Param("browser_tools", ("browser", "web_read"), "names", "Tools whose outputs count as browser output."),
            Param("max_size", 120, "int", "Condense once the history has more messages (events) than this.",
                  "messages", 1, MAX_EVENTS),
            Param("keep_first", 4, "int", FIRST_EVENTS, "messages", 0, MAX_EVENTS),
            Param("minimum_progress", 0.1, "float", "Skip a condensation that would forget less than this share "
                  "of the messages.", "of the messages", 0.0, 0.99)),
    make=_pipeline, rule=_half_rule,
    sources=(Source("OpenHands: openhands/server/session/session.py (the default pipeline)",
                    "https://github.com/All-Hands-AI/OpenHands/blob/main/openhands/server/session/session.py"),
             Source("OpenHands: pipeline.py", REPO + "pipeline.py"),
             Source("OpenHands: browser_output_condenser.py", REPO + "browser_output_condenser.py")),
    notes=("Condensers run in order, each on the previous one's view. The conversation-window condenser that leads "
           "OpenHands' pipeline only acts on an explicit condensation request, which a replayed log does not make.",
           f"A masked browser output reads `{BROWSER_OMITTED}` (OpenHands names the visited URL first). Sessions "
           "without browsing tools are only summarised."),
)

SPECS = (MASKING, RECENT, AMORTIZED, LLM, PIPELINE)

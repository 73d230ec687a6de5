"""Tool pairs told truthfully: a problem already in the loaded conversation is a note, one the compaction
introduced is an alarm. Every message number a person reads counts the loaded conversation from 0, as
its message table does. No Streamlit here."""

from dataclasses import dataclass

from compaction.layers import PipelineResult
from compaction.model import History, LoadWarning, PairProblem, is_waiting_call
from compaction.words import plural
from dashboard.render.text import literal

LOADED = "of the loaded conversation"


def _key(problem: PairProblem) -> tuple[str, str]:
    return problem.kind, problem.tool_use_id


def introduced_problems(result: PipelineResult) -> list[PairProblem]:
    """Broken pairs in what is sent that the loaded conversation did not already have."""
    before = {_key(problem) for problem in result.input_problems}
    return [problem for problem in result.problems if _key(problem) not in before]


def where(history: History, position: int) -> str:
    """'message 121 of the loaded conversation', or where in what is sent a message the compaction wrote is."""
    origin = history.origins[position] if 0 <= position < len(history.origins) else None
    if origin is not None:
        return f"message {origin} {LOADED}"
    return f"a note the compaction wrote (message {position} of what is sent)"


def problem_text(problem: PairProblem, history: History) -> str:
    """A pair problem of `history` (the loaded conversation, or a compacted one), numbered in the loaded one."""
    return f"{where(history, problem.index)}: {problem.detail}"


@dataclass(frozen=True)
class PairVerdict:
    """What a run did to the tool pairs, for the Pipeline page and the report (plain text each)."""

    level: str  # "broken" (the compaction broke pairs), "kept" (only the input's own problems), "intact"
    headline: str
    text: str
    problems: list[str]  # the broken pairs, numbered in the loaded conversation (at most `limit`)


def pair_verdict(result: PipelineResult, limit: int) -> PairVerdict:
    introduced = introduced_problems(result)
    final = result.final.history
    if introduced:
        return PairVerdict("broken", f"The compaction broke {plural(len(introduced), 'tool pair')}",
                           "the API would reject what is sent.",
                           [problem_text(problem, final) for problem in introduced[:limit]])
    if result.valid:
        return PairVerdict("intact", "Tool pairs intact", "every tool call in what is sent is answered by its "
                           "result, so the API would accept it.", [])
    return PairVerdict("kept", "No tool pair broken by the compaction.",
                       f"What is sent keeps the {plural(len(result.problems), 'problem')} the loaded conversation "
                       f"already had (first: {problem_text(result.problems[0], final)}).", [])


def input_note(problems: list[PairProblem], history: History) -> str | None:
    """A neutral note (markdown, the input's ids escaped) on the loaded conversation's own pair problems, and
    what they mean for the API."""
    if not problems:
        return None
    if all(is_waiting_call(problem, len(history.messages)) for problem in problems):
        ids = ", ".join(literal(repr(problem.tool_use_id)) for problem in problems)
        return (f"**The conversation ends on a tool call still waiting for its result** ({where(history, problems[0].index)}, "
                f"tool_use {ids}): the agent stopped while the tool ran. The API takes a history only when every "
                "tool call has its result, so the agent adds that result before its next model call; the pages "
                "compact the conversation as it is.")
    shown = "\n".join(f"- {literal(problem_text(problem, history))}" for problem in problems[:10])
    more = f"\n- … and {len(problems) - 10:,} more" if len(problems) > 10 else ""
    return (f"**The loaded conversation already has {plural(len(problems), 'broken tool pair')}**: the API would refuse "
            f"it as it is, before any compaction. The compaction neither causes nor repairs them.\n{shown}{more}")


def warning_text(warning: LoadWarning) -> str:
    """An importer's warning with its message number said in full."""
    place = [f"line {warning.line}"] if warning.line is not None else []
    if warning.index is not None:
        place.append(f"message {warning.index} {LOADED}")
    return f"{', '.join(place)}: {warning.message}" if place else warning.message


def other_warnings(warnings: list[LoadWarning], problems: list[PairProblem]) -> list[LoadWarning]:
    """The importer's warnings without the pair problems (the pair note says those once)."""
    pairs = {(problem.index, problem.detail) for problem in problems}
    return [warning for warning in warnings if (warning.index, warning.message) not in pairs]

"""Probe questions with Claude (docs/measures.md): what a compacted context can still answer.

As in Factory's published evaluation of compression: four questions about the full conversation, one
of each kind (recall, artifact, continuation, decision), each with its answer from the full
conversation; then the same questions answered from the compacted context alone; then each answer
graded against the full one, 0 to 5. Three requests, made only when asked for (a button, an API call),
with the key given or ANTHROPIC_API_KEY. Failures become ProbeError with a message for a person that
never contains the key.
"""

import json
import re
from dataclasses import asdict, dataclass

from compaction.errors import CompactionError
from compaction.llm.client import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, NO_KEY_MESSAGE, ClaudeCaller
from compaction.model.messages import Message
from compaction.summarizers.base import summary_input

KINDS = ("recall", "artifact", "continuation", "decision")
KIND_MEANING = {
    "recall": "a fact stated earlier in the conversation",
    "artifact": "a file read or changed, or an error seen",
    "continuation": "what the agent should do next",
    "decision": "why something was chosen or ruled out",
}
MAX_SCORE = 5

ASK = ("Below is the full conversation of a coding agent, as JSON. Write four probe questions about it, one "
       "of each kind: " + "; ".join(f"{kind} ({meaning})" for kind, meaning in KIND_MEANING.items()) +
       ". Each needs a short, checkable answer taken from the conversation. Reply with JSON only: a list "
       'of four objects {"kind": ..., "question": ..., "answer": ...}.\n\n')
ANSWER = ("Below is the context a coding agent has left after compaction, as JSON, then four questions. "
          "Answer each from this context alone; when it does not hold the answer, say so. Reply with JSON "
          'only: a list of four objects {"kind": ..., "answer": ...}, in the order of the questions.\n\n')
GRADE = ("Grade each candidate answer against the reference answer, from 0 (wrong or missing) to 5 "
         '(fully right). Reply with JSON only: a list of objects {"kind": ..., "score": ..., "reason": ...}, '
         "in the order given.\n\n")


class ProbeError(CompactionError):
    """The probes could not be run or read; the message is for a person."""


@dataclass(frozen=True)
class Probe:
    kind: str
    question: str
    reference: str  # the answer from the full conversation
    answer: str  # the answer from the compacted context
    score: int  # 0 to MAX_SCORE
    reason: str

    def as_dict(self) -> dict:
        return asdict(self)


def _json_list(text: str, count: int, keys: tuple[str, ...], step: str) -> list[dict]:
    """The JSON list a reply holds (a fenced block or bare), checked for `count` objects with `keys`."""
    match = re.search(r"\[.*\]", text, re.DOTALL)
    try:
        items = json.loads(match.group(0)) if match else None
    except ValueError:
        items = None
    if not isinstance(items, list) or len(items) != count or not all(
            isinstance(item, dict) and all(key in item for key in keys) for item in items):
        raise ProbeError(f"Claude's reply to the {step} step could not be read as the list of {count} asked "
                         f"for (with {', '.join(keys)})")
    return items


class Prober:
    def __init__(self, api_key: str | None = None, base_url: str | None = None, model: str | None = None,
                 input_cap: int = 80_000, timeout: float = DEFAULT_TIMEOUT, max_retries: int = DEFAULT_MAX_RETRIES):
        self._claude = ClaudeCaller(api_key, base_url, model, timeout, max_retries)
        self.model = self._claude.model
        self.input_cap = input_cap

    def __repr__(self) -> str:
        return f"Prober(model={self.model!r}, key={'set' if self._claude.has_key else 'missing'})"

    def _ask(self, prompt: str) -> str:
        return self._claude.ask(prompt, 2000, ProbeError, "Probe questions")

    def run(self, full: list[Message], compacted: list[Message]) -> list[Probe]:
        """The four probes: asked about `full`, answered from `compacted`, graded."""
        if not self._claude.has_key:
            raise ProbeError(NO_KEY_MESSAGE)
        asked = _json_list(self._ask(ASK + summary_input(full, self.input_cap)), len(KINDS),
                           ("kind", "question", "answer"), "question")
        questions = "\n".join(f"{n}. ({item['kind']}) {item['question']}" for n, item in enumerate(asked, 1))
        answered = _json_list(self._ask(ANSWER + summary_input(compacted, self.input_cap) + "\n\nQuestions:\n"
                                        + questions), len(asked), ("answer",), "answer")
        pairs = "\n\n".join(f"{n}. ({q['kind']}) {q['question']}\nReference: {q['answer']}\nCandidate: {a['answer']}"
                            for n, (q, a) in enumerate(zip(asked, answered, strict=True), 1))
        graded = _json_list(self._ask(GRADE + pairs), len(asked), ("score",), "grading")
        probes = []
        for question, answer, grade in zip(asked, answered, graded, strict=True):
            score = grade["score"]
            score = max(0, min(MAX_SCORE, int(score))) if isinstance(score, int | float) else 0
            probes.append(Probe(str(question["kind"]), str(question["question"]), str(question["answer"]),
                                str(answer["answer"]), score, str(grade.get("reason", ""))))
        return probes


def probe_score(probes: list[Probe]) -> float | None:
    """The mean score as a share of the maximum, or None without probes."""
    return sum(p.score for p in probes) / (MAX_SCORE * len(probes)) if probes else None

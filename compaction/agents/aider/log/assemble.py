"""The blocks of a chat history as messages: the person's messages, the replies (one model call each,
its usage from the Tokens line after it), and the points where aider emptied or summarised the chat."""

import re
from dataclasses import dataclass, field

from compaction.agents.aider.log.blocks import Block
from compaction.agents.aider.log.commands import CLEARING, Command, command_of, message_of, switch_target
from compaction.agents.aider.log.tokens import Reported, read_tokens_line
from compaction.importers.usage import from_anthropic
from compaction.model.conversation import LoadWarning

# "Main model: X with diff edit format, prompt cache" (a weak model of its own), "Model: X with ..." (none),
# "Models: X with diff edit format, weak model Y" (aider before 0.50); decorations such as ♾️ before the format
_ANNOUNCED = re.compile(r"^(?:Main model|Model|Models): (\S+?)⚡? with (?:\S+ )*?(\S+) edit format")
_WEAK = re.compile(r"(?:^Weak model: |, weak model )(\S+)")
_VERSION = re.compile(r"^Aider v(\d[\w.+-]*)")
_QUESTION = re.compile(r"\? (?:\(Y\)es/\(N\)o|\[Y/n\]|\[y/N\])")  # a question aider asked, with its answer
RESTORED = "Restored previous conversation history."
SUMMARIZING = "Starting to summarize chat history."  # printed with --verbose only (base_coder.py)
NO_SUMMARY_MODES = frozenset({"ask", "code"})  # cmd_chat_mode: summarize_from_coder = False
CONTEXT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


@dataclass
class Assembled:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    runs: list[dict] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    weak_models: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by


class Walk:
    """Reads the blocks in order; `out` holds what it found."""

    def __init__(self):
        self.out = Assembled()
        self.model: str | None = None
        self.edit_format: str | None = None
        self.switch: str | None = None  # the chat mode the last command switched to, until aider announces it
        self.context_start = 0  # where the chat aider holds began (a run's start, a /clear)
        self.context_tokens: int | None = None  # what the chat's last call sent
        self.notices: list[str] = []  # since the last reply or message: what a reflection answered
        self.waiting: int | None = None  # the reply whose Tokens line may still come
        self.prompted = False  # a message of the person's came: a reply can follow

    def read(self, block: Block) -> None:
        if block.kind == "run":
            self._run(block)
        elif block.kind == "person":
            self._person(block)
        elif block.kind == "notice":
            self._notice(block)
        else:
            self._reply(block, block.text)

    def _run(self, block: Block) -> None:
        self.out.runs.append({"line": block.line, "started": block.lines[0], "index": len(self.out.messages),
                              "model": None, "edit_format": None, "restored": False})
        self.model = self.edit_format = self.switch = None
        self._new_context()

    def _person(self, block: Block) -> None:
        text = block.text
        if len(block.lines) == 1 and _QUESTION.search(text):  # the answer to a question, typed
            self.notices.append(text)
            return
        command = command_of(text)
        if command is None:
            self._message("user", text)
            return
        self.out.count("commands")
        self.waiting = None
        sent = message_of(command)
        if sent is not None:
            self._message("user", sent)
        elif command.name in CLEARING:
            self._clear(block, command)
        else:
            self.switch = switch_target(command)

    def _clear(self, block: Block, command: Command) -> None:
        self.out.count("clear_commands")
        if len(self.out.messages) > self.context_start:  # a /clear of an empty chat changes nothing
            self.out.boundaries.append({"index": len(self.out.messages), "trigger": "clear",
                                        "pre_tokens": self.context_tokens, "line": block.line,
                                        "command": f"/{command.name}"})
        self._new_context()

    def _notice(self, block: Block) -> None:
        text = block.text
        if text.startswith("Tokens: "):
            self._tokens(block, text)
            return
        announced = _ANNOUNCED.match(text)
        if announced:
            self._announced(block, announced)
        elif (version := _VERSION.match(text)) and version.group(1) not in self.out.versions:
            self.out.versions.append(version.group(1))
        elif text == RESTORED and self.out.runs and len(self.out.messages) == self.out.runs[-1]["index"]:
            self.out.runs[-1]["restored"] = True  # --restore-chat-history: the chat goes on from the file
        elif text == SUMMARIZING:
            self._summary(block, "the --verbose notice")
        if (weak := _WEAK.search(text)) and weak.group(1) not in self.out.weak_models:
            self.out.weak_models.append(weak.group(1))
        if text.strip():
            self.notices.append(text)

    def _announced(self, block: Block, found: re.Match) -> None:
        model, edit_format = found.group(1), found.group(2)
        if self.switch is not None and self.edit_format is not None and edit_format != self.edit_format \
                and self.switch not in NO_SUMMARY_MODES:
            # Coder.create(from_coder=...): another edit format summarises the done messages (summarize_all)
            self._summary(block, f"the switch to the {edit_format} edit format")
        self.model, self.edit_format, self.switch = model, edit_format, None
        if model not in self.out.models:
            self.out.models.append(model)
        run = self.out.runs[-1] if self.out.runs else None
        if run is not None and run["model"] is None:
            run["model"], run["edit_format"] = model, edit_format

    def _summary(self, block: Block, cause: str) -> None:
        if len(self.out.messages) > self.context_start:
            self.out.boundaries.append({"index": len(self.out.messages), "trigger": "summary",
                                        "pre_tokens": self.context_tokens, "line": block.line, "cause": cause,
                                        "summary_in_file": False})

    def _tokens(self, block: Block, text: str) -> None:
        self.out.count("tokens_lines")
        reported = read_tokens_line(text)
        if reported is None:
            self.out.warnings.append(LoadWarning(f"a Tokens line the reader cannot read ({text[:60]!r}): the call "
                                                 "has no usage", line=block.line, kind="tokens_unread"))
        elif self.waiting is None and not (reported.sent and self._reply(block, "")):
            self.out.count("tokens_lines_without_call")  # nothing sent (or no prompt yet in the file)
        else:
            waiting = self.waiting
            assert waiting is not None  # _reply made the call when none was waiting
            usage = self.out.usage[waiting] = self._usage(reported)
            if usage is not None:
                self.context_tokens = sum(usage[key] for key in CONTEXT_KEYS)
            if self.out.messages[waiting]["content"] == "":
                self.out.count("calls_without_text")
            if reported.rounded:
                self.out.count("tokens_lines_rounded")
        self.waiting = None

    def _usage(self, reported: Reported) -> dict | None:
        cached = reported.cache_write + reported.cache_hit
        # `sent` holds the cache's reads and writes, except in aider of August 2024 with Anthropic's counts
        # (`492 sent, 1,278 cached`): a cached share larger than `sent` was not part of it
        uncached = reported.sent if cached > reported.sent else reported.sent - cached
        counts = {"input_tokens": uncached,
                  "cache_creation_input_tokens": reported.cache_write,
                  "cache_read_input_tokens": reported.cache_hit, "output_tokens": reported.received}
        usage = from_anthropic(counts, self.model)
        if usage is not None and reported.cost_usd is not None:
            usage["cost_usd"] = reported.cost_usd
        return usage

    def _reply(self, block: Block, text: str) -> bool:
        """Append the reply `text` (a call that wrote none: ""); False when no prompt came before it."""
        if not self.prompted:
            self.out.count("lines_before_any_prompt", len(block.lines))  # a file cut at its top
            return False
        if self.out.messages[-1]["role"] == "assistant" and self.notices:
            # a reflection: aider answered the reply itself (files added, an edit that failed, lint errors);
            # what it sent is not in the file, its notices are
            self._message("user", "\n".join(self.notices))
            self.out.count("reflections")
        self._message("assistant", text)
        self.waiting = len(self.out.messages) - 1
        return True

    def _message(self, role: str, text: str) -> None:
        self.out.messages.append({"role": role, "content": text})
        self.out.usage.append(None)
        self.notices = []
        if role == "user":
            self.waiting = None
            self.prompted = True

    def _new_context(self) -> None:
        self.context_start = len(self.out.messages)
        self.context_tokens = None
        self.notices = []
        self.waiting = None

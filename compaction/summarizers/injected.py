"""What the person typed in a user message, without the lines the agent itself put there.

Agents write lines of their own into the user's turn: caveats before a local command's output, the
command's name and arguments, what it printed, reminders, notifications, an interruption note, the
prompt a slash command expands to. None of them is the person's task or one of their constraints, so the
offline summariser looks past them. Each agent's package registers the texts its logs show.
"""

from dataclasses import dataclass

from compaction.model.messages import Message


@dataclass(frozen=True)
class InjectedText:
    """The lines one agent writes into the person's turn."""

    starts: tuple[str, ...]  # how such a text block opens
    whole: frozenset[str] = frozenset()  # blocks written whole in the agent's own words
    # a block right after one holding `command` is the prompt the command expands to, unless that block
    # also holds one of `printed` (the command printed its output there instead)
    command: str | None = None
    printed: tuple[str, ...] = ()


# What every agent registered, as plain values (the standalone export writes them out as literals)
_STARTS: tuple[str, ...] = ()
_WHOLE: frozenset[str] = frozenset()
_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (command, printed)


def register(injected: InjectedText) -> InjectedText:
    global _STARTS, _WHOLE, _COMMANDS
    _STARTS = (*_STARTS, *injected.starts)
    _WHOLE = _WHOLE | injected.whole
    if injected.command is not None:
        _COMMANDS = (*_COMMANDS, (injected.command, injected.printed))
    return injected


def is_injected(text: str) -> bool:
    """Whether one text block of a user message is a line the agent wrote, not the person."""
    stripped = text.strip()
    return stripped.startswith(_STARTS) or stripped in _WHOLE


def _texts(message: Message) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [str(block.get("text", "")) for block in content if isinstance(block, dict) and block.get("type") == "text"]


def _expands(text: str) -> bool:
    """Whether the next block is a command's expansion: `text` names a command that printed nothing here."""
    return any(command in text and not any(mark in text for mark in printed) for command, printed in _COMMANDS)


def typed_text(message: Message) -> str:
    """The text blocks of `message` the person wrote, joined by newlines; '' when the agent wrote them all.

    A block right after a slash command's name is the prompt the command expands to (a local command's
    output comes there instead, and the person's own words only after it)."""
    kept, after_command = [], False
    for text in _texts(message):
        injected = is_injected(text)
        expansion = after_command and not injected
        if not injected and not expansion:
            kept.append(text)
        after_command = _expands(text)
    return "\n".join(kept)

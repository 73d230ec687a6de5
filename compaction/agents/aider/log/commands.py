"""The person's commands as aider reads them (aider/commands.py): a line starting with `/` names a
command, matched as aider matches it (the whole name, or the start of exactly one name); `!` runs a
shell command. Some commands send a message to the model, some empty the chat, some switch the chat mode.
"""

from dataclasses import dataclass

# aider/commands.py's cmd_* at Aider-AI/aider 5dc9490 (2026-05-22)
NAMES = ("model", "editor-model", "weak-model", "chat-mode", "models", "web", "commit", "lint", "clear", "reset",
         "tokens", "undo", "diff", "add", "drop", "git", "test", "run", "exit", "quit", "ls", "help", "ask", "code",
         "architect", "context", "ok", "voice", "paste", "read-only", "map", "map-refresh", "settings", "load",
         "save", "multiline-mode", "copy", "report", "editor", "edit", "think-tokens", "reasoning-effort",
         "copy-context")
SENDING = frozenset({"ask", "code", "architect", "context", "help"})  # with a question: one message to the model
CLEARING = frozenset({"clear", "reset"})  # done_messages = [] and cur_messages = []
MODES = frozenset({"ask", "code", "architect", "context"})  # without a question: the chat mode switches
OK_MESSAGE = "Ok, please go ahead and make those changes."  # cmd_ok sends it, as /code


@dataclass(frozen=True)
class Command:
    name: str | None  # None: not a command aider knows (it says so and sends nothing)
    args: str


def command_of(text: str) -> Command | None:
    """The command the person's input is, or None for a message."""
    if text.startswith("!"):
        return Command("run", text[1:].strip())
    if not text.startswith("/"):
        return None
    parts = text[1:].split(maxsplit=1)
    word = parts[0].lower() if parts else ""
    matches = [name for name in NAMES if name.startswith(word)] if word else []
    name = word if word in NAMES else matches[0] if len(matches) == 1 else None
    return Command(name, parts[1].strip() if len(parts) > 1 else "")


def message_of(command: Command) -> str | None:
    """The text a command sends to the model, or None when it sends nothing."""
    if command.name == "ok":
        return OK_MESSAGE + (f"\n\n{command.args}" if command.args else "")
    if command.name in SENDING and command.args:
        return command.args
    return None


def switch_target(command: Command) -> str | None:
    """The chat mode a command switches to without sending a message (`model` for another model), or None."""
    if command.name == "model":
        return "model"
    if command.name == "chat-mode":
        return command.args.split()[0].lower() if command.args else None  # without one it lists the modes
    return command.name if command.name in MODES and not command.args else None

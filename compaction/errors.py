"""Errors the engine raises for bad input or bad settings.

Each carries a message meant for a person: it names the file, line or field at fault.
"""


class CompactionError(Exception):
    """Base of every error the engine raises on purpose."""


class SettingsError(CompactionError, ValueError):
    """A setting is out of range or of the wrong type."""


class ConversationError(CompactionError, ValueError):
    """Input that cannot be read as a conversation.

    `where` names the place (file, line, message index, field) when known.
    """

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class SummarizerError(CompactionError):
    """The summariser failed; the history it was given is left as it was."""

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

    def __init__(self, message: str, where: "str | object | None" = None):
        # `where` may be an object worded only now (an importer's place of each message)
        self.where = None if where is None else str(where)
        super().__init__(f"{self.where}: {message}" if self.where else message)


class SummarizerError(CompactionError):
    """The summariser failed; the history it was given is left as it was."""

"""One place that builds `anthropic.Anthropic` clients the way the whole project wants them.

Claude is optional: nothing here runs unless a key is given or found in ANTHROPIC_API_KEY.
"""

import os

from compaction.llm.api_errors import describe_failure
from compaction.llm.sdk import require_sdk

# Default Claude model for summaries and token counts: the newest Sonnet in the pinned SDK's model list
# (the SDK warns that claude-sonnet-4-5 is deprecated). Override per call, or for the whole process with
# the COMPACTION_CLAUDE_MODEL environment variable (read at call time, not import time).
DEFAULT_MODEL = "claude-sonnet-5-5"
MODEL_ENV = "COMPACTION_CLAUDE_MODEL"
DEFAULT_TIMEOUT = 60.0  # seconds per attempt; a summary of ~80 KB of input takes well under this
DEFAULT_MAX_RETRIES = 2  # the SDK's own default: retries 408/409/429/5xx and connection errors

NO_KEY_MESSAGE = (
    "No Anthropic API key: set the ANTHROPIC_API_KEY environment variable or enter a key, "
    "or use the offline summariser."
)


def default_model() -> str:
    """COMPACTION_CLAUDE_MODEL when set, else DEFAULT_MODEL."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def resolve_key(api_key: str | None) -> str | None:
    """The explicit key, else ANTHROPIC_API_KEY; None when neither is set (blank counts as unset)."""
    key = api_key if api_key is not None else os.environ.get("ANTHROPIC_API_KEY")
    key = (key or "").strip()
    return key or None


def make_client(api_key: str, base_url: str | None, timeout: float, max_retries: int):
    """A client for `api_key`; `base_url` None falls back to ANTHROPIC_BASE_URL, then the public API.

    The key is always passed explicitly so the SDK never goes looking for profiles on disk.
    """
    return require_sdk().Anthropic(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)


class ClaudeCaller:
    """A model, a key (given, else ANTHROPIC_API_KEY) and a client for it, asking one question at a time.

    Built before the user has entered a key (then `has_key` is False and no client exists). `ask`
    returns the reply's text; a failure raises `error_type` with `what` and a message for a person that
    never contains the key (`api_errors.describe_failure`).
    """

    def __init__(self, api_key: str | None, base_url: str | None, model: str | None, timeout: float,
                 max_retries: int):
        self.model = model or default_model()
        self._key = resolve_key(api_key)
        self._client = make_client(self._key, base_url, timeout, max_retries) if self._key else None

    @property
    def has_key(self) -> bool:
        return self._client is not None

    def ask(self, prompt: str, max_tokens: int, error_type: type[Exception], what: str) -> str:
        if self._client is None:  # callers check has_key first; this keeps a slip from an AttributeError
            raise error_type(NO_KEY_MESSAGE)
        try:
            reply = self._client.messages.create(model=self.model, max_tokens=max_tokens,
                                                 messages=[{"role": "user", "content": prompt}])
        except require_sdk().AnthropicError as exc:
            # `from None`: the SDK error's text embeds the raw response body, which is not vetted
            raise error_type(f"{what} failed: {describe_failure(exc, self._key)}") from None
        return "".join(block.text for block in reply.content if getattr(block, "type", None) == "text")

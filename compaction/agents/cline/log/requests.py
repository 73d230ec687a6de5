"""What one `api_req_started` row of a task's ui_messages.json says of its model request.

Cline, Roo Code and Kilo Code each write one such row per request (src/core/task: `say("api_req_started",
JSON.stringify({request, ...}))`), and fill its `text` in once the stream ends: `tokensIn` (the input not
read from a cache), `tokensOut`, `cacheWrites`, `cacheReads`, `cost` (US$, by the extension's own price
table), and where the request failed `cancelReason` / `streamingFailedMessage`. Roo Code and Kilo Code add
`apiProtocol`: "anthropic" counts the input apart from the cache, "openai" counts the cached tokens inside
`tokensIn` (Roo's getApiMetrics adds the cache only for the first). Cline puts the model in the row's
`modelInfo` {providerId, modelId, mode} (3.3x and later); Roo Code and Kilo Code do not.
"""

import json
from dataclasses import dataclass
from typing import Any

from compaction.importers.totals import usd
from compaction.importers.usage import count, from_anthropic, from_cached_input

STARTED = "api_req_started"


@dataclass(frozen=True)
class Request:
    """One `api_req_started` row, read."""

    row: int  # its position in ui_messages.json
    text: str | None  # what was sent as the person's turn (`request`), when the row keeps it
    usage: dict | None  # usage.py's dict, None when every count is 0 (a request that failed before any)
    cost_usd: float | None  # the row's own cost
    model: str | None
    cancelled: str | None  # cancelReason, when the request was cut off
    history_index: int | None  # conversationHistoryIndex (Cline): the newest message of the API history then
    protocol: str | None  # Roo's and Kilo's apiProtocol

    @property
    def context_tokens(self) -> int:
        """The whole request as the extensions count it (Cline's ContextManager: tokensIn + tokensOut +
        cacheWrites + cacheReads)."""
        usage = self.usage or {}
        return sum(count(usage.get(key)) for key in ("input_tokens", "cache_creation_input_tokens",
                                                     "cache_read_input_tokens", "output_tokens"))


def model_of(row: dict) -> str | None:
    info = row.get("modelInfo")
    model = info.get("modelId") if isinstance(info, dict) else None
    return model.strip() if isinstance(model, str) and model.strip() else None


def read_request(position: int, row: dict) -> tuple[Request | None, str | None]:
    """The request of an `api_req_started` row, or None and why it cannot be read."""
    raw = row.get("text")
    if not isinstance(raw, str):
        return None, "an api_req_started row without text: no usage"
    try:
        info = json.loads(raw)
    except ValueError:
        return None, "an api_req_started row whose text is not JSON: no usage"
    if not isinstance(info, dict):
        return None, "an api_req_started row whose text is not a JSON object: no usage"
    model = model_of(row)
    protocol = info.get("apiProtocol") if isinstance(info.get("apiProtocol"), str) else None
    reads, writes = info.get("cacheReads"), info.get("cacheWrites")
    if protocol == "openai":  # the cached tokens are inside tokensIn
        usage = from_cached_input(info.get("tokensIn"), reads, info.get("tokensOut"), model)
    else:
        usage = from_anthropic({"input_tokens": info.get("tokensIn"), "output_tokens": info.get("tokensOut"),
                                "cache_creation_input_tokens": writes, "cache_read_input_tokens": reads}, model)
    cost = usd(info.get("cost"))
    if usage is not None and cost is not None:
        usage["cost_usd"] = cost
    index = row.get("conversationHistoryIndex")
    request = info.get("request")
    cancelled = info.get("cancelReason")
    return Request(position, request if isinstance(request, str) else None, usage, cost, model,
                   cancelled if isinstance(cancelled, str) else None,
                   index if isinstance(index, int) and not isinstance(index, bool) else None, protocol), None


def is_request(row: Any) -> bool:
    return isinstance(row, dict) and row.get("say") == STARTED

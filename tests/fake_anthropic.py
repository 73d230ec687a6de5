"""A small real HTTP server speaking the parts of the Anthropic Messages API the project uses.

Tests point the real `anthropic` SDK at `server.url`. By default `POST /v1/messages` answers a text
message and `POST /v1/messages/count_tokens` answers len(body) / 4 tokens; queued replies (`reply`,
`error`, `prompt_too_long`, `slow`) are used first, in order, per path. `respond_with(answer)` sets a
function of the request body that answers `/v1/messages` when nothing is queued (a scripted agent
session, a model window). Every request is recorded, with the status it was answered.
"""

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MESSAGES = "/v1/messages"
COUNT_TOKENS = "/v1/messages/count_tokens"
PROMPT_TOO_LONG_BODY = {
    "type": "error",
    "error": {"type": "invalid_request_error", "message": "prompt is too long: 208656 tokens > 200000 maximum"},
}
_ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error",
}


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: object  # the parsed JSON, or the raw text when it is not JSON
    raw: bytes
    status: int = 0  # what it was answered

    @property
    def api_key(self) -> str | None:
        """The key the client sent: `x-api-key`, or a Bearer token (what SDK 2.x sends for api_key=)."""
        auth = self.headers.get("authorization", "")
        return self.headers.get("x-api-key") or (auth[7:] if auth.startswith("Bearer ") else None)


@dataclass
class Canned:
    status: int
    body: object
    delay: float = 0.0  # seconds to wait before answering (for client timeouts)
    headers: dict[str, str] = field(default_factory=dict)


def message_body(text: str | None, model: str = "claude-fake", number: int = 1) -> dict:
    """A Messages API reply; `text` None gives a reply with no content blocks."""
    content = [] if text is None else [{"type": "text", "text": text}]
    return {
        "id": f"msg_fake_{number:04d}", "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": max(1, len(text or "") // 4)},
    }


def assistant_body(content: list, stop_reason: str, usage: dict, model: str = "claude-fake", number: int = 1) -> dict:
    """A Messages API reply carrying `content` blocks as given (tool calls included)."""
    return {"id": f"msg_fake_{number:04d}", "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": stop_reason, "stop_sequence": None, "usage": usage}


def too_long_body(tokens: int, maximum: int) -> dict:
    """The real API's 400 body for a prompt over the window, with these counts."""
    return {"type": "error", "error": {"type": "invalid_request_error",
                                       "message": f"prompt is too long: {tokens} tokens > {maximum} maximum"}}


def error_body(status: int, message: str) -> dict:
    return {"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}}


class FakeAnthropic:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._queues: dict[str, deque[Canned]] = {MESSAGES: deque(), COUNT_TOKENS: deque()}
        self._lock = threading.Lock()
        self._closing = threading.Event()  # cuts short a `slow` reply at shutdown
        self._answer_with: Callable[[object], Canned] | None = None
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="fake-anthropic", daemon=True)
        self._thread.start()

    # --- scripting -----------------------------------------------------------------------------
    def enqueue(self, status: int, body: object, path: str = MESSAGES, delay: float = 0.0,
                headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self._queues[path].append(Canned(status, body, delay, dict(headers or {})))

    def reply(self, text: str | None) -> None:
        """Next /v1/messages answers 200 with `text` (None: no content blocks at all)."""
        self.enqueue(200, message_body(text))

    def error(self, status: int, message: str = "fake failure", path: str = MESSAGES,
              headers: dict[str, str] | None = None) -> None:
        self.enqueue(status, error_body(status, message), path, headers=headers)

    def prompt_too_long(self, path: str = MESSAGES) -> None:
        """Next request on `path` gets the real API's 400 body for an over-long prompt."""
        self.enqueue(400, PROMPT_TOO_LONG_BODY, path)

    def respond_with(self, answer: "Callable[[object], Canned] | None") -> None:
        """`answer(body) -> Canned` answers /v1/messages whenever nothing is queued (None: the default text)."""
        self._answer_with = answer

    def slow(self, delay: float, path: str = MESSAGES) -> None:
        """Next request on `path` is answered only after `delay` seconds (pair with a short client timeout)."""
        self.enqueue(200, message_body("too late"), path, delay=delay)

    # --- inspection ----------------------------------------------------------------------------
    def bodies(self, path: str = MESSAGES) -> list[object]:
        return [r.body for r in self.requests if r.path == path]

    def answered(self, status: int = 200, path: str = MESSAGES) -> list[object]:
        """The bodies of the requests answered with `status`."""
        return [r.body for r in self.requests if r.path == path and r.status == status]

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # --- serving -------------------------------------------------------------------------------
    def _answer(self, path: str, raw: bytes, body: object) -> Canned:
        with self._lock:
            queue = self._queues.get(path)
            if queue is None:
                return Canned(404, error_body(404, f"no such path: {path}"))
            if queue:
                return queue.popleft()
            count = sum(1 for r in self.requests if r.path == path)
        if path == COUNT_TOKENS:
            return Canned(200, {"input_tokens": -(-len(raw) // 4)})
        if self._answer_with is not None:
            return self._answer_with(body)
        model = body.get("model", "unknown") if isinstance(body, dict) else "unknown"
        return Canned(200, message_body(f"Fake summary number {count}.", model=model, number=count))


def _handler_for(server: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            path = self.path.split("?", 1)[0]
            try:
                body: object = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            recorded = Recorded("POST", path, {k.lower(): v for k, v in self.headers.items()}, body, raw)
            with server._lock:
                server.requests.append(recorded)
            canned = server._answer(path, raw, body)
            recorded.status = canned.status
            if canned.delay and server._closing.wait(canned.delay):
                return
            payload = json.dumps(canned.body).encode()
            try:
                self.send_response(canned.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.send_header("request-id", f"req_fake_{len(server.requests):04d}")
                for name, value in canned.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep pytest output clean

    return Handler

"""A session played back through the local Messages API: the fake server answers each call with the next
assistant message of a conversation, refuses a request over the model window with the real API's 400,
and answers the usage of what it was sent, counted as the replay counts a history (characters / 4 by
default, system prompt and tools included). So the compacting client meets, call by call, the model
window the replay assumed, and its trace records the tokens each request carried."""

import anthropic

from compaction.model.conversation import Conversation
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from tests.fake_anthropic import Canned, assistant_body, too_long_body

DONE = [{"type": "text", "text": "All done."}]


def request_tokens(body: dict, token_model: TokenModel = DEFAULT_TOKEN_MODEL) -> int:
    """The tokens of a request as a replay estimates a history: len(str(messages)) plus the system prompt
    and tools (a History's context_size), through the token model."""
    chars = len(str(body["messages"]))
    for key in ("system", "tools"):
        if body.get(key):
            chars += len(str(body[key]))
    return token_model.tokens(chars)


class ScriptedModel:
    """`fake.respond_with(ScriptedModel(conversation, window))`: each call gets the next assistant message."""

    def __init__(self, conversation: Conversation | list, window: int = 200_000,
                 token_model: TokenModel = DEFAULT_TOKEN_MODEL):
        messages = conversation.messages if isinstance(conversation, Conversation) else conversation
        self.responses = [m for m in messages if m["role"] == "assistant"]
        self.window, self.token_model = window, token_model
        self.answered = 0
        self.usage: list[dict] = []  # what each accepted call was answered

    def __call__(self, body: dict) -> Canned:
        tokens = request_tokens(body, self.token_model)
        if tokens > self.window:
            return Canned(400, too_long_body(tokens, self.window))
        message = self.responses[self.answered] if self.answered < len(self.responses) else {"content": DONE}
        content = message["content"] if isinstance(message["content"], list) else \
            [{"type": "text", "text": message["content"]}]
        stop = "tool_use" if any(b.get("type") == "tool_use" for b in content) else "end_turn"
        usage = {"input_tokens": tokens, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                 "output_tokens": max(1, len(str(content)) // 4)}
        self.answered += 1
        self.usage.append(usage)
        return Canned(200, assistant_body(content, stop, usage, number=self.answered))


def sdk(fake) -> "anthropic.Anthropic":
    return anthropic.Anthropic(api_key="sk-ant-test-agent", base_url=fake.url, max_retries=0, timeout=30.0)


def drive(client, conversation: Conversation, model: str = "claude-fake") -> int:
    """The conversation as its agent held it, fed to the compacting client: one call before each assistant
    message, with everything before it (the original messages, so the two histories can be compared).
    Returns the number of calls made."""
    extra = {key: value for key, value in (("system", conversation.system), ("tools", conversation.tools)) if value}
    so_far: list = []
    calls = 0
    for message in conversation.messages:
        if message["role"] == "assistant":
            client.messages.create(model=model, max_tokens=1000, messages=so_far, **extra)
            calls += 1
        so_far.append(message)
    return calls

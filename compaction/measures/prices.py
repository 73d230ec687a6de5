"""What each model's calls were billed at: a bundled price table by model family, and the recorded
cost of a log's calls priced by it (docs/measures.md, "What the log's calls cost").

Prices are US$ per million tokens, each row with its source and the date it was read. Anthropic
bills cache writes by lifetime (1.25 x input for 5 minutes, 2 x for 1 hour on most rows) and reads
at 0.1 x, but newer families differ (Opus 5.5 and Sonnet 5.5 read at 0.05 x, Fable 5.1 at 0.025 x),
so every row carries its own figures. OpenAI and Google bill cached input at a lower price and
charge nothing extra for writing it: their write prices are the input price.

A model id is matched to the longest family that starts it, when what follows the family is not
another version number (`claude-opus-4-20250514` is Opus 4, `claude-opus-4-9` is not in the table).
"""

import re
from dataclasses import dataclass, replace

from compaction.importers.usage import made_no_call
from compaction.measures.cost import Prices

FALLBACK_NOTE = "priced at the settings' prices"
READ_ON = "2026-12-01"
ANTHROPIC = "https://platform.claude.com/docs/en/about-claude/pricing"
ANTHROPIC_MODELS = "https://platform.claude.com/docs/en/models/{}/overview"
OPENAI = "https://developers.openai.com/api/docs/pricing"
GOOGLE = "https://ai.google.dev/gemini-api/docs/pricing"


@dataclass(frozen=True)
class ModelPrice:
    family: str  # the model-id prefix this row prices, e.g. "claude-opus-4-5"
    input: float  # US$ per million uncached input tokens
    output: float
    cache_read: float
    cache_write_5m: float
    cache_write_1h: float
    source: str  # where the figures were read (URL, and a label when the page is not the provider's)
    read_on: str  # the date they were read, YYYY-MM-DD
    # a prompt (input + cache reads + writes) larger than this is billed entirely at `long_prompt`
    long_prompt_over: int | None = None
    long_prompt: "ModelPrice | None" = None

    def cost(self, input: int, cache_write_5m: int, cache_write_1h: int, cache_read: int, output: int) -> float:
        """US$ of one call: uncached input, cache writes of each lifetime, cache reads, output."""
        prompt = input + cache_write_5m + cache_write_1h + cache_read
        if self.long_prompt is not None and self.long_prompt_over is not None and prompt > self.long_prompt_over:
            return self.long_prompt.cost(input, cache_write_5m, cache_write_1h, cache_read, output)
        return (self.input * input + self.cache_write_5m * cache_write_5m + self.cache_write_1h * cache_write_1h
                + self.cache_read * cache_read + self.output * output) / 1_000_000


def _anthropic(family: str, input: float, output: float, read: float = 0.1, write_5m: float = 1.25,
               write_1h: float = 2.0, source: str = ANTHROPIC, **long) -> ModelPrice:
    """An Anthropic row from its input and output prices and its cache multipliers."""
    return ModelPrice(family, input, output, round(input * read, 6), round(input * write_5m, 6),
                      round(input * write_1h, 6), source, READ_ON, **long)


def _cached_input(family: str, input: float, cached: float, output: float, source: str, **long) -> ModelPrice:
    """An OpenAI or Google row: cached input at its own price, no charge for writing the cache."""
    return ModelPrice(family, input, output, cached, input, input, source, READ_ON, **long)


def _long(row: ModelPrice, over: int, tier: ModelPrice) -> ModelPrice:
    return replace(row, long_prompt_over=over, long_prompt=tier)


_SONNET_55_CUT = ("https://github.com/kurofune/claudit/releases/tag/v1.9.2 (release notes: cache reads cut from "
                  "0.10 x to 0.05 x on 2026-10-07; the overview page still read $0.20)")
_HAIKU_55 = ANTHROPIC_MODELS.format("haiku-5-5") + " and https://apidog.com/blog/how-to-use-claude-haiku-5-5-api/ " \
    "(bands: prompts up to 100k tokens, and over)"
XAI_CODE = "https://docs.x.ai/docs/models/grok-code-fast-1 ($0.20 input, $0.02 cached input, $1.50 output)"
_OPENAI_COPILOT = OPENAI + " (figures as the models-and-pricing.yml table of github/docs quotes them)"

PRICE_TABLE: tuple[ModelPrice, ...] = (
    # Anthropic Claude 3.x - 5.x (platform.claude.com pricing table; model pages for the 5.x rows)
    _anthropic("claude-3-haiku", 0.25, 1.25, read=0.12, write_5m=1.2),  # $0.03 read, $0.30 / $0.50 write
    _anthropic("claude-3-5-haiku", 0.8, 4),
    _anthropic("claude-3-opus", 15, 75),
    _anthropic("claude-3-5-sonnet", 3, 15),
    _anthropic("claude-3-7-sonnet", 3, 15),
    _anthropic("claude-opus-4", 15, 75),
    _anthropic("claude-opus-4-0", 15, 75),
    _anthropic("claude-opus-4-1", 15, 75),
    _anthropic("claude-opus-4-5", 5, 25),
    _anthropic("claude-opus-4-6", 5, 25),
    _anthropic("claude-opus-4-7", 5, 25),
    _anthropic("claude-opus-4-8", 5, 25),
    _anthropic("claude-opus-5", 5, 25),
    _anthropic("claude-opus-5-5", 4, 20, read=0.05,
               source=ANTHROPIC_MODELS.format("opus-5-5") + " ($4 / $20) and https://github.com/kurofune/claudit/"
               "releases/tag/v1.8.2 (cache: $5 / $8 writes, $0.20 reads)"),
    _anthropic("claude-sonnet-4", 3, 15),
    _anthropic("claude-sonnet-4-0", 3, 15),
    _anthropic("claude-sonnet-4-5", 3, 15),
    _anthropic("claude-sonnet-4-6", 3, 15),
    _anthropic("claude-sonnet-5", 2, 10, source=ANTHROPIC_MODELS.format("sonnet-5")),
    _anthropic("claude-sonnet-5-5", 2, 10, read=0.05, source=_SONNET_55_CUT),
    _anthropic("claude-haiku-4-5", 1, 5),
    _long(_anthropic("claude-haiku-5-5", 0.1, 0.5, source=_HAIKU_55), 100_000,
          _anthropic("claude-haiku-5-5 (prompt over 100k)", 0.5, 2.5, source=_HAIKU_55)),
    _anthropic("claude-fable-5", 10, 50),
    _anthropic("claude-fable-5-1", 10, 50, read=0.025),
    _anthropic("claude-mythos-5", 10, 50),
    _anthropic("claude-mythos-5-1", 10, 50, read=0.025),
    # OpenAI GPT-4.1, GPT-5.x and their models for coding
    _cached_input("gpt-4.1", 2.0, 0.5, 8.0, _OPENAI_COPILOT),
    _cached_input("gpt-4.1-mini", 0.4, 0.1, 1.6, OPENAI + " (as hex.pm openai_responses 0.4.1 quotes it)"),
    _cached_input("gpt-4.1-nano", 0.1, 0.025, 0.4, OPENAI + " (as hex.pm openai_responses 0.4.1 quotes it)"),
    _cached_input("gpt-5", 1.25, 0.125, 10.0, "https://developers.openai.com/api/docs/models/gpt-5-codex"),
    _cached_input("gpt-5-codex", 1.25, 0.125, 10.0, "https://developers.openai.com/api/docs/models/gpt-5-codex"),
    _cached_input("gpt-5-mini", 0.25, 0.025, 2.0, _OPENAI_COPILOT),
    _cached_input("gpt-5-nano", 0.05, 0.005, 0.4, "https://developers.openai.com/api/docs/models/gpt-5-nano"),
    _cached_input("gpt-5.1", 1.25, 0.125, 10.0, "https://koishiai.com/en/articles/openai-gpt-5-1-api-pricing-limits"),
    _cached_input("gpt-5.1-codex", 1.25, 0.125, 10.0, "priced as gpt-5.1 (its model page was not read)"),
    _cached_input("gpt-5.1-codex-mini", 0.25, 0.025, 2.0, "priced as gpt-5-mini (its model page was not read)"),
    _cached_input("gpt-5.2", 1.75, 0.175, 14.0, _OPENAI_COPILOT),
    _cached_input("gpt-5.2-codex", 1.75, 0.175, 14.0, _OPENAI_COPILOT),
    _cached_input("gpt-5.3-codex", 1.75, 0.175, 14.0, _OPENAI_COPILOT),
    _cached_input("gpt-5.4", 2.5, 0.25, 15.0, _OPENAI_COPILOT),
    _cached_input("gpt-5.4-mini", 0.75, 0.075, 4.5, "https://developers.openai.com/api/docs/models/gpt-5-nano "
                  "(its comparison table) and the PowerShell Gallery ShellPilot 0.3.1 price table"),
    _cached_input("gpt-5.4-nano", 0.2, 0.02, 1.25, "the PowerShell Gallery ShellPilot 0.3.1 price table"),
    # Google's 2.5 and 3 models (cached input is context caching's price; storage is not in a log)
    _long(_cached_input("gemini-2.5-pro", 1.25, 0.125, 10.0, GOOGLE), 200_000,
          _cached_input("gemini-2.5-pro (prompt over 200k)", 2.5, 0.25, 15.0, GOOGLE)),
    _cached_input("gemini-2.5-flash", 0.3, 0.03, 2.5, GOOGLE),
    _cached_input("gemini-2.5-flash-lite", 0.1, 0.01, 0.4, GOOGLE),
    _long(_cached_input("gemini-3-pro", 2.0, 0.2, 12.0, GOOGLE), 200_000,
          _cached_input("gemini-3-pro (prompt over 200k)", 4.0, 0.4, 18.0, GOOGLE)),
    _cached_input("gemini-3-flash", 0.5, 0.05, 3.0, GOOGLE + " (as factquire.com quotes it, read there 2026-07-04)"),
    # xAI's model for coding (OpenRouter's x-ai/grok-code-fast-1)
    _cached_input("grok-code-fast-1", 0.2, 0.02, 1.5, XAI_CODE),
)
_BY_FAMILY = {row.family: row for row in PRICE_TABLE}
ZERO = ModelPrice("(written by the agent)", 0, 0, 0, 0, 0, "written by the agent itself: no API call", READ_ON)

# "anthropic/…", "models/…" (Google's), Bedrock's "us.anthropic.…", and suffixes: "[1m]", Bedrock's "-v1:0"
_PROVIDER = re.compile(r"^(?:[a-z-]+/)+|^(?:(?:us|eu|apac|global)\.)?anthropic\.")
_SUFFIX = re.compile(r"\[[^\]]*\]$|-v\d+(?::\d+)?$")
_CLAUDE_DOT = re.compile(r"(\d)\.(\d)")  # claude-opus-4.1: Anthropic's ids never put a dot in a version
_VERSION_TOKEN = re.compile(r"^[-.@_:]?(\d{1,2})(?:$|[-.@_:])")


def normalise(model: str) -> str:
    """`claude-opus-4-5-20251101` as it is; `anthropic/Claude-Sonnet-4-5[1m]` as `claude-sonnet-4-5`; a Claude
    version spelled with a dot, as OpenRouter and the agents that route through it write it
    (`anthropic/claude-sonnet-4.5`, `claude-haiku-4.5`), as Anthropic's own id spells it."""
    name = model.strip().lower()
    name = _PROVIDER.sub("", name)
    name = _SUFFIX.sub("", name)
    return _CLAUDE_DOT.sub(r"\1-\2", name) if name.startswith("claude-") else name


def price_for(model: str | None) -> ModelPrice | None:
    """The row pricing `model`, ZERO for a response the agent wrote itself (usage.made_no_call), None
    when the table has no family for it (the caller prices it at the settings' prices and names it)."""
    if not model:
        return None
    if made_no_call(model):
        return replace(ZERO, family=model.strip())
    return family_row(model, _BY_FAMILY)


def family_row(model: str, by_family: dict):
    """The row of `by_family` (family -> row) for the longest family that starts `model` normalised, when what
    follows the family is not another version number; None when no family does (the window table reads it too)."""
    name = normalise(model)
    for end in range(len(name), 0, -1):
        row = by_family.get(name[:end])
        if row is not None:
            rest = name[end:]
            # another version number after the family is another model: claude-opus-4 is not claude-opus-4-9
            if rest and (rest[0] not in "-.@_:" or _VERSION_TOKEN.match(rest)):
                continue
            return row
    return None


def bills_cache_writes(model: str | None) -> bool | None:
    """Whether the provider of `model` bills writing the prompt cache (Anthropic, by lifetime), or only
    bills cached input lower with no charge for writing it (OpenAI, Google); None off the table."""
    row = price_for(model)
    return None if row is None else row.cache_write_5m > row.input


def _count(usage: dict, key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def cache_writes(usage: dict) -> tuple[int, int]:
    """(5-minute, 1-hour) tokens written to the cache. Without the split all writes count as 5-minute;
    writes the split does not account for count as 5-minute too."""
    created = _count(usage, "cache_creation_input_tokens")
    one_hour = _count(usage, "cache_write_1h_tokens")
    five_minutes = _count(usage, "cache_write_5m_tokens")
    return max(five_minutes, created - one_hour), one_hour


def recorded_parts(usage: dict) -> tuple[int, int, int, int]:
    """(uncached input, 5-minute writes, 1-hour writes, cache reads) of a recorded call."""
    five_minutes, one_hour = cache_writes(usage)
    return _count(usage, "input_tokens"), five_minutes, one_hour, _count(usage, "cache_read_input_tokens")


def recorded_call_cost(usage: dict, fallback: Prices) -> tuple[float, str]:
    """(US$, what priced it) of one recorded call: the table row's family, or why the settings' prices
    (`fallback`) priced it instead. A call is never priced at $0 for want of a row."""
    counts = (*recorded_parts(usage), _count(usage, "output_tokens"))
    model = usage.get("model") if isinstance(usage.get("model"), str) else None
    row = price_for(model)
    if row is not None:
        return row.cost(*counts), row.family
    reason = f"{model} is not in the price table" if model else "the log names no model"
    return fallback.cost(*counts), f"{reason}: {FALLBACK_NOTE}"


@dataclass(frozen=True)
class RecordedCost:
    """What a log's recorded calls cost at their own models' prices."""

    total_usd: float
    per_call: tuple[float | None, ...]  # aligned with the usage list: None where a message recorded no call
    models: tuple[str, ...]  # the model ids seen, in order of first appearance
    unknown_models: tuple[str, ...] = ()  # the ids the table lacks, each once
    notes: tuple[str, ...] = ()  # each fallback named once: "glm-4.7 is not in the price table: priced at ..."
    cache_lifetime: str | None = None  # "1h", "5m", "mixed", or None when the log shows no split of its writes


def recorded_cost(usage_list: list, fallback: Prices) -> RecordedCost:
    per_call: list[float | None] = []
    models: dict[str, None] = {}  # dicts as ordered sets: first appearance first
    unknown: dict[str, None] = {}
    notes: dict[str, None] = {}
    lifetimes: set[str] = set()
    for usage in usage_list:
        if not isinstance(usage, dict):
            per_call.append(None)
            continue
        cost, priced_by = recorded_call_cost(usage, fallback)
        per_call.append(cost)
        model = usage.get("model")
        if isinstance(model, str):
            models[model] = None
        if priced_by.endswith(FALLBACK_NOTE):
            notes[priced_by] = None
            if isinstance(model, str) and model:
                unknown[model] = None
        if _count(usage, "cache_write_1h_tokens"):
            lifetimes.add("1h")
        if _count(usage, "cache_write_5m_tokens"):
            lifetimes.add("5m")
    lifetime = "mixed" if len(lifetimes) > 1 else next(iter(lifetimes), None)
    return RecordedCost(sum(c for c in per_call if c is not None), tuple(per_call), tuple(models),
                        tuple(unknown), tuple(notes), lifetime)

"""What calls cost, with and without prompt caching, at prices per million tokens (settings).

Defaults are Anthropic's list prices for a Sonnet-class model: input $3, output $15; a cache write
costs 1.25 x the input price for the 5-minute lifetime and 2 x for the 1-hour one, a cache read
0.1 x (Anthropic's published pricing: https://platform.claude.com/docs/en/about-claude/pricing). `Prices` is what the person sets; the prices a log's own
models were billed at come from the bundled table (measures/prices.py), which falls back on these.
"""

from dataclasses import asdict, dataclass

from compaction.errors import SettingsError


@dataclass(frozen=True)
class Prices:
    input: float = 3.0  # US$ per million input tokens
    output: float = 15.0  # US$ per million output tokens
    cache_write: float = 1.25  # times the input price, for a 5-minute cache entry
    cache_read: float = 0.1  # times the input price
    cache_write_1h: float = 2.0  # times the input price, for a 1-hour cache entry

    def __post_init__(self):
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1_000_000:
                raise SettingsError(f"price {name} must be a number from 0 to 1,000,000, got {value!r}")

    def cached(self, read: int, write: int, uncached: int, output: int) -> float:
        """US$ of one call whose input was partly read from the cache and partly written to it
        (5-minute entries: the lifetime the replay's cache model assumes)."""
        return (self.input * (uncached + self.cache_write * write + self.cache_read * read)
                + self.output * output) / 1_000_000

    def plain(self, input_tokens: int, output: int) -> float:
        """US$ of one call without any caching."""
        return (self.input * input_tokens + self.output * output) / 1_000_000

    def cost(self, input: int, cache_write_5m: int, cache_write_1h: int, cache_read: int, output: int) -> float:
        """US$ of one call as a log records it: uncached input, writes of each lifetime, reads, output
        (the same arguments as ModelPrice.cost, so either prices a recorded call)."""
        return (self.input * (input + self.cache_write * cache_write_5m + self.cache_write_1h * cache_write_1h
                              + self.cache_read * cache_read) + self.output * output) / 1_000_000


DEFAULT_PRICES = Prices()

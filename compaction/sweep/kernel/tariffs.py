"""The price of many calls at once, each figure computed by the same operations in the same order as
the scalar prices (measures/cost.py `Prices.cost`, measures/prices.py `ModelPrice.cost`), so every call's
cost is the very float the loop gets."""

import numpy as np

from compaction.measures.cost import Prices
from compaction.measures.prices import ModelPrice

Tariff = ModelPrice | Prices


def costs(tariff: Tariff, uncached, write_5m, write_1h, read, output) -> np.ndarray:
    """tariff.cost(...) of every call (integer arrays, or 0)."""
    if isinstance(tariff, Prices):
        inner = uncached + tariff.cache_write * write_5m + tariff.cache_write_1h * write_1h + tariff.cache_read * read
        return (tariff.input * inner + tariff.output * output) / 1_000_000
    found = (tariff.input * uncached + tariff.cache_write_5m * write_5m + tariff.cache_write_1h * write_1h
             + tariff.cache_read * read + tariff.output * output) / 1_000_000
    if tariff.long_prompt is not None and tariff.long_prompt_over is not None:
        prompt = uncached + write_5m + write_1h + read
        found = np.where(prompt > tariff.long_prompt_over,
                         costs(tariff.long_prompt, uncached, write_5m, write_1h, read, output), found)
    return np.asarray(found, dtype=np.float64)


def cached(tariff: Tariff, lifetime: str, read, write, output) -> np.ndarray:
    """CallPrice.cached: reads and writes at the lifetime of the call's cache (none: all of it input)."""
    if lifetime == "none":
        return costs(tariff, read + write, 0, 0, 0, output)
    if lifetime == "1h":
        return costs(tariff, 0, 0, write, read, output)
    return costs(tariff, 0, write, 0, read, output)


def plain(tariff: Tariff, input_tokens, output) -> np.ndarray:
    """CallPrice.plain: no caching at all."""
    return costs(tariff, input_tokens, 0, 0, 0, output)

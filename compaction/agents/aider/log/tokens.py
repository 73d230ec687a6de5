"""Aider's Tokens line, after each reply (base_coder.py calculate_and_show_tokens_and_cost):

    Tokens: 1.8k sent, 1.2k cache write, 512 cache hit, 653 received. Cost: $0.0021 message, $0.0144 session.

The counts print through utils.format_tokens: as they are below 1,000, with one decimal in thousands
below 10,000 (`1.8k`: 1,750 to 1,849) and in whole thousands above (`21k`: 20,500 to 21,499), so a
figure with `k` is approximate. Files of aider before August 2024 write whole numbers with commas
(`5,244 sent`), `cached` for the cache reads and `request` for `message`. `sent` is the whole prompt,
the cache's reads and writes included (but for a few of August 2024, whose cached share was not in it:
assemble.py tells them by a cached share larger than `sent`). `Cost:` (the call's price by aider's own table, rounded to two
significant figures below a cent, to the cent above) is there only for a model aider knows the price of;
it is on the next line when the call both wrote and read the cache.
"""

import re
from dataclasses import dataclass

_FIGURE = re.compile(r"^(\d[\d,]*(?:\.\d+)?)(k?)$")
_PART = re.compile(r"^(\S+) (sent|cache write|cache hit|cached|received)$")
_COST = re.compile(r"Cost: \$(\d+(?:\.\d+)?) (?:message|request),")


@dataclass(frozen=True)
class Reported:
    """What one Tokens line says."""

    sent: int
    cache_write: int
    cache_hit: int
    received: int
    rounded: bool  # a figure was printed in thousands (`1.8k`): the counts are approximate
    cost_usd: float | None  # the call's cost as aider printed it


def figure(text: str) -> tuple[int, bool] | None:
    """A printed count as a number, and whether it was rounded: `653`, `5,244`, `1.8k` (1,800), `21k`."""
    found = _FIGURE.match(text)
    if found is None:
        return None
    number, thousands = found.group(1).replace(",", ""), found.group(2)
    if not thousands:
        return (int(number), False) if number.isdigit() else None
    return round(float(number) * 1000), True


def read_tokens_line(text: str) -> Reported | None:
    """The Tokens notice (without its `> `, its Cost line joined), or None when it cannot be read."""
    head, _, rest = text.partition(" received")
    if not head.startswith("Tokens: "):
        return None
    counts: dict[str, int] = {}
    rounded = False
    for part in f"{head[len('Tokens: '):]} received".split(", "):
        found = _PART.match(part.strip())
        value = figure(found.group(1)) if found else None
        if found is None or value is None:
            return None
        counts["cache hit" if found.group(2) == "cached" else found.group(2)] = value[0]
        rounded = rounded or value[1]
    if "sent" not in counts or "received" not in counts:
        return None
    cost = _COST.search(rest)
    return Reported(counts["sent"], counts.get("cache write", 0), counts.get("cache hit", 0), counts["received"],
                    rounded, float(cost.group(1)) if cost else None)

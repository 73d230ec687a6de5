"""Counts in words, as every message and page writes them: '1 call', '3 calls', never '3 call(s)'."""


def plural(count: int, word: str) -> str:
    """'1 summary', '6 summaries', '2 messages' (the count with thousands separators)."""
    if count == 1:
        return f"{count:,} {word}"
    many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{count:,} {many}"


def verb(count: int, one: str, many: str) -> str:
    """The verb agreeing with `count`: verb(1, 'is', 'are')."""
    return one if count == 1 else many

"""The bundled price table and the recorded cost of a log's calls, priced by hand.

Prices are US$ per million tokens, so every hand computation below sums token x price and divides by
1,000,000 at the end."""

from dataclasses import replace
from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.measures.cost import Prices
from compaction.measures.prices import (
    PRICE_TABLE,
    ZERO,
    cache_writes,
    price_for,
    recorded_call_cost,
    recorded_cost,
)

CASES = Path(__file__).parents[1] / "importers" / "cases" / "valid"
SETTINGS = Prices()  # $3 in, $15 out, writes 1.25 x (5 minutes) and 2 x (1 hour), reads 0.1 x


def usage(model=None, input=0, created=0, read=0, output=0, five=None, hour=None) -> dict:
    found = {"input_tokens": input, "cache_creation_input_tokens": created, "cache_read_input_tokens": read,
             "output_tokens": output}
    if model is not None:
        found["model"] = model
    if five is not None:
        found["cache_write_5m_tokens"] = five
    if hour is not None:
        found["cache_write_1h_tokens"] = hour
    return found


@pytest.mark.parametrize(("model", "family"), [
    ("claude-opus-4-5-20251101", "claude-opus-4-5"),
    ("claude-sonnet-4-6", "claude-sonnet-4-6"),
    ("claude-3-5-haiku-latest", "claude-3-5-haiku"),
    ("claude-opus-4-20250514", "claude-opus-4"),  # Opus 4 is $15 / $75, not Opus 4.5's $5 / $25
    ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),  # Vertex AI's spelling
    ("us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5"),  # Bedrock's
    ("claude-sonnet-4-5[1m]", "claude-sonnet-4-5"),
    ("gpt-5.2-codex", "gpt-5.2-codex"),
    ("gpt-5.1-codex-mini", "gpt-5.1-codex-mini"),
    ("gpt-4.1-2025-04-14", "gpt-4.1"),
    ("gemini-2.5-pro", "gemini-2.5-pro"),
    ("gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
    ("models/gemini-3-flash-preview", "gemini-3-flash"),
])
def test_a_model_id_finds_its_family(model, family):
    assert price_for(model).family == family


@pytest.mark.parametrize("model", ["claude-opus-4-9", "claude-foo-9", "glm-4.7", "gemini-3.1-pro-preview", "", None])
def test_a_model_the_table_lacks_finds_nothing_not_a_neighbour(model):
    # claude-opus-4-9 starts with claude-opus-4 but is another version: pricing it as Opus 4 would be a guess
    assert price_for(model) is None


def test_every_row_names_its_source_and_date_and_keeps_its_own_multipliers():
    for row in PRICE_TABLE:
        assert row.source and row.read_on == "2026-12-01"
    assert price_for("claude-opus-4-6").cache_read == 0.5  # 0.1 x $5
    assert price_for("claude-opus-5-5").cache_read == 0.2  # 0.05 x $4: not the usual 0.1 x
    assert price_for("gpt-5.4").cache_write_1h == price_for("gpt-5.4").input  # OpenAI charges no cache write


def test_a_one_hour_write_costs_twice_the_input_price():
    # Sonnet 4.5, $3 input: 10,000 written for an hour = 10,000 x $6 = $0.06, plus 100 output x $15
    cost, priced_by = recorded_call_cost(usage("claude-sonnet-4-5-20250929", created=10_000, hour=10_000,
                                               five=0, output=100), SETTINGS)
    assert priced_by == "claude-sonnet-4-5"
    assert cost == pytest.approx((10_000 * 6 + 100 * 15) / 1e6)  # 0.0615


def test_a_five_minute_write_costs_one_and_a_quarter_and_no_split_counts_as_five_minutes():
    # Opus 4.5, $5 input: 8,000 written for 5 minutes x $6.25 = 50,000; 2 input x $5 = 10; 30,000 read x $0.5
    # = 15,000; 250 output x $25 = 6,250: 71,260 per million
    split = usage("claude-opus-4-5-20251101", input=2, created=8_000, five=8_000, hour=0, read=30_000, output=250)
    unsplit = usage("claude-opus-4-5-20251101", input=2, created=8_000, read=30_000, output=250)
    assert recorded_call_cost(split, SETTINGS)[0] == pytest.approx(0.07126)
    assert recorded_call_cost(unsplit, SETTINGS)[0] == pytest.approx(0.07126)
    assert cache_writes(usage(created=900, hour=600)) == (300, 600)  # writes the split misses count as 5 minutes


def test_an_unknown_model_is_named_once_and_priced_at_the_settings_never_zero():
    # the settings' $3 / $15: 1,000 input x 3 + 2,000 written x 3.75 + 10,000 read x 0.3 + 100 out x 15
    # = 3,000 + 7,500 + 3,000 + 1,500 = 15,000 per million
    call = usage("claude-foo-9", input=1_000, created=2_000, read=10_000, output=100)
    cost, priced_by = recorded_call_cost(call, SETTINGS)
    assert cost == pytest.approx(0.015) and cost > 0
    assert priced_by == "claude-foo-9 is not in the price table: priced at the settings' prices"
    found = recorded_cost([None, call, None, call], SETTINGS)
    assert found.unknown_models == ("claude-foo-9",)
    assert found.notes == ("claude-foo-9 is not in the price table: priced at the settings' prices",)
    assert found.per_call == (None, pytest.approx(0.015), None, pytest.approx(0.015))
    assert found.total_usd == pytest.approx(0.03)


def test_a_call_naming_no_model_is_priced_at_the_settings_and_says_so():
    cost, priced_by = recorded_call_cost(usage(input=1_000_000), Prices(input=2))
    assert (cost, priced_by) == (2.0, "the log names no model: priced at the settings' prices")


def test_a_synthetic_response_costs_nothing():
    # Claude Code writes these itself ("No response requested.", "Prompt is too long"): no API call
    assert price_for("<synthetic>") == replace(ZERO, family="<synthetic>")
    assert recorded_call_cost(usage("<synthetic>", input=10, output=10), SETTINGS) == (0.0, "<synthetic>")


def test_openai_cached_input_has_its_own_price_and_no_write_charge():
    # gpt-5.2-codex: $1.75 input, $0.175 cached, $14 output. Our usage dicts hold uncached input apart:
    # 20,000 uncached x 1.75 = 35,000; 100,000 cached x 0.175 = 17,500; 1,000 out x 14 = 14,000
    call = usage("gpt-5.2-codex", input=20_000, read=100_000, output=1_000)
    assert recorded_call_cost(call, SETTINGS) == (pytest.approx(0.0665), "gpt-5.2-codex")
    created = usage("gpt-5.2-codex", input=20_000, created=5_000, read=100_000, output=1_000)
    assert recorded_call_cost(created, SETTINGS)[0] == pytest.approx(0.0665 + 5_000 * 1.75 / 1e6)


def test_gemini_cached_input_and_its_long_prompt_band():
    # gemini-2.5-flash: $0.30 input, $0.03 cached, $2.50 output: 50,000 x 0.3 + 150,000 x 0.03 + 2,000 x 2.5
    # = 15,000 + 4,500 + 5,000 = 24,500 per million
    flash = usage("gemini-2.5-flash", input=50_000, read=150_000, output=2_000)
    assert recorded_call_cost(flash, SETTINGS)[0] == pytest.approx(0.0245)
    # gemini-2.5-pro bills a prompt over 200,000 tokens at $2.50 / $0.25 cached / $15 out, all of it:
    # 100,000 x 2.5 + 150,000 x 0.25 + 1,000 x 15 = 250,000 + 37,500 + 15,000
    long = usage("gemini-2.5-pro", input=100_000, read=150_000, output=1_000)
    assert recorded_call_cost(long, SETTINGS)[0] == pytest.approx(0.3025)
    short = usage("gemini-2.5-pro", input=100_000, read=50_000, output=1_000)  # 1.25, 0.125, 10
    assert recorded_call_cost(short, SETTINGS)[0] == pytest.approx((125_000 + 6_250 + 10_000) / 1e6)


def test_a_response_over_three_lines_costs_what_its_last_line_says():
    # Hand-written in the layout of FINDINGS.md 1.1: one Opus 4.6 response over three lines (text, Read,
    # Grep), each repeating message.usage; the first two carry streaming snapshots (output 2, 3), the last
    # the final 412. Then a one-line response. Both write 1-hour cache entries.
    # Opus 4.6: $5 input, $10 1-hour write, $0.50 read, $25 output.
    #   call 1: 3 x 5 + 4,000 x 10 + 16,000 x 0.5 + 412 x 25 = 15 + 40,000 + 8,000 + 10,300 = 58,315
    #   call 2: 1 x 5 + 900 x 10 + 20,003 x 0.5 + 57 x 25 = 5 + 9,000 + 10,001.5 + 1,425 = 20,431.5
    conversation = load_conversation(CASES / "claude_code_response_over_three_lines.jsonl")
    found = recorded_cost(conversation.usage, SETTINGS)
    assert found.per_call == (None, pytest.approx(0.058315), None, pytest.approx(0.0204315))
    assert found.total_usd == pytest.approx(0.0787465)
    assert (found.models, found.unknown_models, found.cache_lifetime) == (("claude-opus-4-6",), (), "1h")
    # what the two common mistakes would have said: the first line's output (2), 1-hour writes at 1.25 x
    assert found.total_usd - (412 - 2) * 25 / 1e6 == pytest.approx(0.0684965)  # 78,746.5 - 410 x 25
    assert found.total_usd - (4_000 + 900) * (10 - 6.25) / 1e6 == pytest.approx(0.0603715)  # - 4,900 x 3.75


def test_the_cache_lifetime_a_log_shows():
    five, hour, neither = usage(created=5, five=5), usage(created=5, hour=5), usage(created=5)
    assert recorded_cost([five, five], SETTINGS).cache_lifetime == "5m"
    assert recorded_cost([hour, None], SETTINGS).cache_lifetime == "1h"
    assert recorded_cost([five, hour], SETTINGS).cache_lifetime == "mixed"
    assert recorded_cost([neither], SETTINGS).cache_lifetime is None  # no split written: the log does not say


def test_prices_take_a_write_multiplier_per_lifetime_and_keep_their_old_methods():
    prices = Prices(input=1, output=5, cache_write=1.25, cache_read=0.1, cache_write_1h=3)
    # 10 input + 1.25 x 10 + 3 x 10 + 0.1 x 10 = 53.5, + 5 x 10 output = 103.5 per million
    assert prices.cost(10, 10, 10, 10, 10) == pytest.approx(103.5 / 1e6)
    assert Prices().cached(1000, 2000, 0, 100) == pytest.approx(0.0093)  # the replay's call, unchanged
    assert Prices(3, 15, 1.25, 0.1).cache_write_1h == 2.0

"""Everything pages read from the session, with defaults, so a page also works when run on its own.

The sidebar widgets live in app.py; their values are copied to a plain session key on every read, so
a page run without app.py (AppTest's switch_page) still sees the last settings, or the defaults.
"""

from collections import OrderedDict
from collections.abc import Callable

import streamlit as st

from compaction.errors import SettingsError
from compaction.layers import PipelineResult, run_pipeline
from compaction.measures import (
    DEFAULT_PRICES,
    LogWindow,
    PipelineLoss,
    Prices,
    log_window,
    paid_and_final,
    pipeline_loss_of,
)
from compaction.model import DEFAULTS, Settings
from compaction.replay import ReplayResult, replay
from compaction.storage import OutputStore, new_session_store, remove_stale_sessions
from compaction.summarizers import OfflineSummarizer
from dashboard.render import log_view
from dashboard.render.agent_regime import Regime
from dashboard.render.agent_regime import regime as regime_of
from dashboard.render.text import literal
from dashboard.render.tour import TOUR_SETTINGS
from dashboard.render.units import CHARS, UNITS
from dashboard.ui import api_key, per_file, uploads
from dashboard.ui.loading import DEFAULT_SAMPLE, Loaded, load_generated, load_sample, prepared
from dashboard.ui.sliders import ADVANCED_SLIDERS, MAIN_SLIDERS, SLIDERS, SliderSpec  # noqa: F401 (pages read them here)

UNIT_KEY = "UNIT"
MODEL_WINDOW_KEY = "MODEL_WINDOW"
# Prices: as the log says (each call at its response's model, the price table's row) unless the person
# sets their own on Replay or Compare: per million tokens, and the cache multipliers
PRICE_MODE_KEY = "PRICES"
AS_LOGGED, OWN_PRICES = "log", "own"
PRICE_KEYS = {"input": "PRICE_INPUT", "output": "PRICE_OUTPUT", "cache_write": "CACHE_WRITE",
              "cache_write_1h": "CACHE_WRITE_1H", "cache_read": "CACHE_READ"}
# set for one file, never carried to the next (per_file.py; Compare's controls too)
PER_FILE_KEYS = (MODEL_WINDOW_KEY, PRICE_MODE_KEY, *PRICE_KEYS.values())
SUMMARIZER_KEY = "SUMMARIZER"
LOG_VIEW_KEY = "LOG_VIEW"
OFFLINE, CLAUDE = "offline", "claude"
STORE_ROOT_ENV = uploads.STORE_ROOT_ENV

_SAVED_SETTINGS = "_saved_settings"
_LOADED = "_loaded_conversation"
_STORE = "_output_store"
_RESULTS = "_pipeline_results"
_CLAUDE_RESULTS = "_claude_results"
_REPLAYS = "_replays"
_TOUR = "_tour_result"
_LOSSES = "_pipeline_losses"
_REGIME = "_agent_regimes"
_RESULT_CACHE_SIZE = 12
_STRATEGY_REPLAYS = "_strategy_replays"
_STRATEGY_CACHE_SIZE = 40  # every strategy of the registry at two sets of parameters


def settings() -> Settings:
    """The settings of the sidebar sliders (or the last ones seen, or the tutorial's defaults)."""
    saved = st.session_state.setdefault(_SAVED_SETTINGS, {})
    values = {}
    for spec in SLIDERS:
        value = st.session_state.get(spec.key, saved.get(spec.key, spec.default))
        saved[spec.key] = values[spec.field] = int(value)
    return DEFAULTS.replace(**values)


def reset_settings() -> None:
    """Button callback: every slider back to the tutorial's default."""
    for spec in SLIDERS:
        st.session_state[spec.key] = spec.default
    st.session_state[_SAVED_SETTINGS] = {}


def remembered(key: str, default):
    """A widget value that survives pages where the widget is not drawn."""
    saved = st.session_state.setdefault(_SAVED_SETTINGS, {})
    value = st.session_state.get(key, saved.get(key, default))
    saved[key] = value
    return value


def unit() -> str:
    value = remembered(UNIT_KEY, CHARS)
    return value if value in UNITS else CHARS


def store() -> OutputStore:
    """This browser session's folder for persisted outputs and transcripts."""
    current = st.session_state.get(_STORE)
    if current is None:
        root = uploads.store_root()
        current = st.session_state[_STORE] = new_session_store(root)  # private: random name, mode 0700
        remove_stale_sessions(root, keep=(current.root,))  # folders idle > SESSION_MAX_AGE_S (24 h)
    return current


def loaded() -> Loaded:
    """The conversation on show; the default sample until the user picks another."""
    current = st.session_state.get(_LOADED)
    if current is None:  # a new browser session: the upload the address names (a reload), else the sample
        current = st.session_state[_LOADED] = uploads.restored() or load_sample(DEFAULT_SAMPLE)
    return current


def set_loaded(conversation: Loaded) -> None:
    """Show `conversation`; a new file starts from its own window, prices and Compare controls (per_file)."""
    if conversation.key != loaded().key:
        per_file.forget(PER_FILE_KEYS, st.session_state.setdefault(_SAVED_SETTINGS, {}))
    st.session_state[_LOADED] = conversation
    uploads.name_in_address(conversation)


def history():
    current = loaded()
    return prepared(current.key, current.conversation)


def calls_paid_sentence() -> str:
    """The log's calls and cost, paid and of its final branch, as every page and command says them."""
    return f"The log: {literal(paid_and_final(loaded().conversation, prices() or DEFAULT_PRICES).sentence())}."


def log_view_choice() -> str:
    """Which history the one pass runs on for a log that compacted itself (Pipeline, What changed)."""
    value = remembered(LOG_VIEW_KEY, log_view.WITHOUT_SUMMARIES)
    return value if value in log_view.VIEWS else log_view.WITHOUT_SUMMARIES


def pipeline_view() -> log_view.LogView:
    """The loaded conversation as the one pass sees it: for a log that compacted itself, without the
    agent's own summaries, or from its last compaction on (dashboard/render/log_view.py)."""
    return log_view.log_view(history(), log_view_choice())


def remember(cache_name: str, key, value, size: int = _RESULT_CACHE_SIZE) -> None:
    cache = st.session_state.setdefault(cache_name, OrderedDict())
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)


def _result_key(current_settings: Settings) -> tuple:
    return loaded().key, tuple(current_settings.as_dict().items()), str(store().root)


def _pass_key(current_settings: Settings) -> tuple:
    """A one-pass run's key: the settings and which history of a self-compacted log it ran on."""
    return (*_result_key(current_settings), log_view_choice())


def _cached(cache_name: str, key, compute, size: int = _RESULT_CACHE_SIZE):
    """`compute()` once per key, the newest `size` results kept in the session."""
    cache = st.session_state.setdefault(cache_name, OrderedDict())
    if key not in cache:
        remember(cache_name, key, compute(), size)
    return cache[key]


def offline_result(current_settings: Settings | None = None) -> PipelineResult:
    """The pipeline over the loaded conversation with the offline summariser, run once per settings."""
    current_settings = current_settings or settings()
    return _cached(_RESULTS, _pass_key(current_settings),
                   lambda: run_pipeline(pipeline_view().history, current_settings, store(), OfflineSummarizer()))


def agent_regime() -> Regime:
    """The agent's own regime at the sidebar's other settings (dashboard/render/agent_regime.py), the one
    Pipeline and Tune offer, once per file, settings and window."""
    window, current = model_window(), settings()
    maxima = {spec.field: spec.maximum for spec in SLIDERS}
    return _cached(_REGIME, (*_result_key(current), window),
                   lambda: regime_of(history(), window, maxima, current))


def pipeline_loss(result: PipelineResult) -> "PipelineLoss":
    """What the Pipeline page's run dropped and lost, cached with the run's settings and whose summary it
    holds (Claude's and the offline run at the same settings send different histories)."""
    by_claude = result is claude_result(result.settings)
    return _cached(_LOSSES, (*_pass_key(result.settings), by_claude), lambda: pipeline_loss_of(result))


def log_model_window() -> LogWindow:
    """The loaded log's own window: as it names it, else its model's (measures/windows.py). A file starts
    from it; one the person types is that file's until another file is loaded (per_file.py)."""
    conversation = loaded().conversation
    return log_window(conversation.usage, conversation.metadata)


def model_window() -> int:
    """The model's context window in tokens (the Replay page's input), for every page that replays: what
    the person typed for this file, else the log's own."""
    default = log_model_window().tokens
    value = remembered(MODEL_WINDOW_KEY, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


def model_window_changed() -> bool:
    """Whether the person set a window of their own for the loaded file."""
    return model_window() != log_model_window().tokens


def price_mode() -> str:
    value = remembered(PRICE_MODE_KEY, AS_LOGGED)
    return value if value in (AS_LOGGED, OWN_PRICES) else AS_LOGGED


def own_prices() -> Prices:
    """The prices typed on Replay or Compare (or the last ones seen, or Anthropic's list prices)."""
    values = {name: remembered(key, getattr(DEFAULT_PRICES, name)) for name, key in PRICE_KEYS.items()}
    try:
        return Prices(**{name: float(value) for name, value in values.items()})
    except (SettingsError, TypeError, ValueError):
        return DEFAULT_PRICES


def prices() -> Prices | None:
    """None unless the person set prices: every replay, sweep and corpus then prices each call as the
    log says (its response's model in the price table, the log's cache lifetime)."""
    return own_prices() if price_mode() == OWN_PRICES else None


def replay_store() -> OutputStore:
    """Where replays write: apart from the Pipeline's files (a replay writes a transcript per summary, and
    the outputs L3 persists along the session)."""
    return OutputStore(store().root / "replays")


def _replay_key(strategy: str, histories: bool) -> tuple:
    """What decides a replay at the current settings: the run's key, the strategy, the window, the prices."""
    return (*_result_key(settings()), strategy, model_window(), histories, prices())


def replay_result(strategy: str = "pipeline", histories: bool = True) -> ReplayResult:
    """The agent loop over the loaded conversation at the current settings and model window.

    `histories=False` keeps only the per-call records: a strategy that never snips keeps every message,
    so its histories grow with the square of the session's length."""
    current_settings, window, current_prices = settings(), model_window(), prices()
    return _cached(_REPLAYS, _replay_key(strategy, histories),
                   lambda: replay(history(), current_settings, store=replay_store(), summarizer=OfflineSummarizer(),
                                  model_window_tokens=window, strategy=strategy, keep_histories=histories, prices=current_prices))


def strategy_replay(name: str, params: dict) -> ReplayResult:
    """A strategy of the registry at `params` over the loaded conversation (the Compare page): its own
    parameters, not the sidebar's settings; the model window of the Replay page; offline summaries."""
    from compaction.strategies import build

    window = model_window()
    step = build(name, params)  # checks the parameters before anything is cached
    current_prices = prices()
    key = (loaded().key, name, tuple(sorted(step.params.items())), window, str(store().root), current_prices)
    return _cached(_STRATEGY_REPLAYS, key, lambda: replay(history(), DEFAULTS, store=replay_store(), summarizer=OfflineSummarizer(),
                                                          model_window_tokens=window, strategy=step, keep_histories=False, prices=current_prices),
                   size=_STRATEGY_CACHE_SIZE)


def replay_later() -> Callable[[], ReplayResult]:
    """The replay at the current settings, as a call to make later: a download's data is made outside the
    page's run, where the session cannot be read. The page's cached replay when there is one."""
    for histories in (True, False):
        cached = st.session_state.get(_REPLAYS, {}).get(_replay_key("pipeline", histories))
        if cached is not None:
            return lambda: cached
    current_settings, window, current_prices = settings(), model_window(), prices()
    prepared, store_of_replays = history(), replay_store()
    return lambda: replay(prepared, current_settings, store=store_of_replays, summarizer=OfflineSummarizer(), model_window_tokens=window,
                          keep_histories=False, prices=current_prices)


def tour_result() -> PipelineResult:
    """The guided tour's run: the tutorial's demo at the tour's fixed settings, whatever the sidebar says."""
    def run() -> PipelineResult:
        demo = load_generated("seed-demo")
        return run_pipeline(prepared(demo.key, demo.conversation), TOUR_SETTINGS,
                            OutputStore(store().root / "tour"), OfflineSummarizer())

    return _cached(_TOUR, "seed-demo", run, size=1)


def apply_settings(values: dict[str, int]) -> None:
    """Callback: set sidebar sliders (by Settings field) before the sidebar is drawn in the next run."""
    by_field = {spec.field: spec for spec in SLIDERS}
    saved = st.session_state.setdefault(_SAVED_SETTINGS, {})
    for field, value in values.items():
        spec = by_field[field]
        st.session_state[spec.key] = saved[spec.key] = int(value)


def summarizer_choice() -> str:
    return remembered(SUMMARIZER_KEY, OFFLINE)


def claude_result(current_settings: Settings | None = None) -> PipelineResult | None:
    """The run whose L4 Claude wrote, for these settings, if the user asked for one."""
    key = _pass_key(current_settings or settings())
    return st.session_state.get(_CLAUDE_RESULTS, {}).get(key)


def result() -> PipelineResult:
    """What the pages show: Claude's run when chosen and asked for, else the offline run."""
    current_settings = settings()
    if summarizer_choice() == CLAUDE:
        asked = claude_result(current_settings)
        if asked is not None:
            return asked
    return offline_result(current_settings)


def run_with_claude() -> PipelineResult:
    """Run the pipeline with Claude writing the L4 summary (only on the user's explicit request)."""
    from compaction.summarizers import ClaudeSummarizer

    current_settings = settings()
    summarizer = ClaudeSummarizer(api_key=api_key.typed_key(), max_tokens=current_settings.summary_max_tokens,
                                  input_cap=current_settings.summary_input_cap)
    outcome = run_pipeline(pipeline_view().history, current_settings, store(), summarizer)
    remember(_CLAUDE_RESULTS, _pass_key(current_settings), outcome)
    return outcome

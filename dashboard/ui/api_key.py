"""The Anthropic API key a person typed: kept in this session's memory only, never drawn again."""

import os

import streamlit as st

_TYPED = "_claude_api_key"


def set_typed_key(key: str) -> None:
    st.session_state[_TYPED] = key.strip() or None


def typed_key() -> str | None:
    return st.session_state.get(_TYPED)


def forget_typed_key() -> None:
    st.session_state.pop(_TYPED, None)


def environment_key() -> bool:
    return bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())

"""`compaction-lab`: the dashboard, started with `streamlit run` on the packaged app and its settings.

The settings are config.toml beside this file, passed as flags, so they hold from any folder (Streamlit
reads a `.streamlit/config.toml` only from the folder it starts in). Arguments given to `compaction-lab`
go to `streamlit run` after them, so they win: `compaction-lab --server.port 8502`.

It listens on 127.0.0.1 (config.toml) unless `--server.address` says otherwise, and says first which it
is, and for a shared server what other machines' browsers reach (compaction/access.py).
"""

import os
import sys
import tomllib
from importlib.resources import files

from compaction.access import SCHEDULERS_ENV, SESSION_FOLDERS_ENV, is_local

HERE = files("dashboard.launch")


def _flag_value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def config_flags() -> list[str]:
    """config.toml as `--section.option=value` flags of `streamlit run`."""
    config = tomllib.loads(HERE.joinpath("config.toml").read_text(encoding="utf-8"))
    return [f"--{section}.{name}={_flag_value(value)}" for section, options in config.items()
            for name, value in options.items()]


def streamlit_arguments(extra: list[str]) -> list[str]:
    """The arguments of `streamlit` that start the dashboard, `extra` last."""
    return ["run", str(HERE.joinpath("app.py")), *config_flags(), *extra]


def listening_address(arguments: list[str]) -> str:
    """The address `streamlit run arguments` listens on: the last --server.address given ("" is every
    interface, as for Streamlit)."""
    address = ""
    for position, argument in enumerate(arguments):
        if argument.startswith("--server.address="):
            address = argument.partition("=")[2]
        elif argument == "--server.address" and position + 1 < len(arguments):
            address = arguments[position + 1]
    return address


def startup_text(address: str, environ=os.environ) -> str:
    """What the dashboard is about to open, said before Streamlit's own lines."""
    if address.strip().lower() == "localhost" or address.strip() and is_local(address):
        return (f"Compaction Lab listens on {address} only: browsers on this machine reach it, no other machine "
                "does. To serve others, start it with --server.address 0.0.0.0 (README: Serving others).")
    return (f"Compaction Lab serves others: it listens on {address or 'every interface'}, so browsers on other "
            "machines reach it. Theirs get uploads and the bundled samples, plus the session folders in "
            f"{SESSION_FOLDERS_ENV} ({_listed(environ.get(SESSION_FOLDERS_ENV))}) and the Dask schedulers in "
            f"{SCHEDULERS_ENV} ({_listed(environ.get(SCHEDULERS_ENV))}).")


def _listed(value: str | None) -> str:
    return "none: unset" if value is None else value.strip() or "none: empty"


def main(argv: list[str] | None = None) -> int:
    try:
        from streamlit.web import cli
    except ImportError:
        print("compaction-lab: the dashboard needs its packages: pip install 'compaction-lab[app]'", file=sys.stderr)
        return 2
    arguments = streamlit_arguments(sys.argv[1:] if argv is None else argv)
    print(startup_text(listening_address(arguments)), flush=True)
    sys.argv = ["streamlit", *arguments]
    return cli.main()

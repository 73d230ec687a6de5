"""`compaction-lab`: the dashboard, started with `streamlit run` on the packaged app and its settings.

The settings are config.toml beside this file, passed as flags, so they hold from any folder (Streamlit
reads a `.streamlit/config.toml` only from the folder it starts in). Arguments given to `compaction-lab`
go to `streamlit run` after them, so they win: `compaction-lab --server.port 8502`.
"""

import sys
import tomllib
from importlib.resources import files

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


def main(argv: list[str] | None = None) -> int:
    try:
        from streamlit.web import cli
    except ImportError:
        print("compaction-lab: the dashboard needs its packages: pip install 'compaction-lab[app]'", file=sys.stderr)
        return 2
    sys.argv = ["streamlit", *streamlit_arguments(sys.argv[1:] if argv is None else argv)]
    return cli.main()

"""A light Streamlit client: what one browser tab says over the websocket, without the browser.

It speaks Streamlit 1.67's own protocol on /_stcore/stream (BackMsg and ForwardMsg protobufs) and keeps
what the browser's app keeps between runs, so the server does the same work for it as for a real tab:

- the elements of the last run, by delta path (a full run re-sends them all; older ones are stale);
- a value for every widget on screen, sent with every rerun: the proto's value when the server set one
  (`set_value`), else the value already held, else the widget's default; pruned to the widgets of the
  last run, and to the entrypoint's on a page change (the browser's WidgetStateManager);
- the query string: a bound widget's new value goes into it (dropped when it equals the default), the
  server's page_info_changed replaces it, a page change keeps only bound parameters;
- the cache of large messages: cacheable ones are kept by hash, their hashes sent with each rerun, the
  server's ref_hash answers resolved from it, entries expire after `max_cached_message_age` runs.

Use: `tab = await StreamlitTab.open(url)`, then `run = await tab.rerun()` and, for each interaction,
`await tab.rerun([tab.slider_value("KEEP_RECENT", 4)])`, `tab.click("load_sample")` or
`tab.rerun(page=tab.page_hash("Pipeline"))`. Each `rerun` returns once the run's script_finished
arrived. One asyncio loop can hold many tabs.
"""

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ContextInfo
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import ClientConnection, connect

# How a run ended that is an answer to a rerun (not one cut short by the next rerun).
RUN_ENDS = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR}
# Widgets whose value is a choice among options, sent as the option's label.
CHOICE_WIDGETS = ("selectbox", "radio")


class ProtocolError(RuntimeError):
    """The server said something a browser tab could not have used."""


@dataclass
class Run:
    """What one script run sent: its elements and blocks by delta path, and how long it took."""

    status: int
    elements: dict[tuple[int, ...], Element]
    blocks: dict[tuple[int, ...], object]
    seconds: float  # from sending the rerun to its script_finished

    def find(self, kind: str, predicate=lambda proto: True):
        """Protos of elements of `kind` ("metric", "slider", ...) that satisfy `predicate`, in page order."""
        return [getattr(element, kind) for _, element in sorted(self.elements.items())
                if element.WhichOneof("type") == kind and predicate(getattr(element, kind))]

    @property
    def succeeded(self) -> bool:
        return self.status == ForwardMsg.FINISHED_SUCCESSFULLY

    def metric(self, label: str) -> str | None:
        found = self.find("metric", lambda metric: metric.label == label)
        return found[0].body if found else None

    def exceptions(self) -> list[str]:
        return [exception.message for exception in self.find("exception")]


def _initial_value(widget_id: str, kind: str, proto) -> WidgetState | None:
    """The value the browser holds for a widget the server just drew (None: the widget sends none).

    `proto` is the element's proto; for a tab container, the label of the tab on show."""
    state = WidgetState(id=widget_id)
    if kind == "slider":
        state.double_array_value.data[:] = proto.value if proto.set_value else proto.default
    elif kind in CHOICE_WIDGETS:
        if proto.set_value and proto.HasField("raw_value"):
            state.string_value = proto.raw_value
        elif not proto.set_value and proto.HasField("default"):
            state.string_value = proto.options[proto.default]
        else:
            return None
    elif kind == "checkbox":
        state.bool_value = proto.value if proto.set_value else proto.default
    elif kind == "number_input":
        if not (proto.set_value or proto.HasField("default")):
            return None
        state.double_value = proto.value if proto.set_value else proto.default
    elif kind in ("text_input", "text_area"):
        if not (proto.set_value or proto.HasField("default")):
            return None
        state.string_value = proto.value if proto.set_value else proto.default
    elif kind == "tab_container":
        state.string_value = proto
    else:  # buttons send a trigger only when clicked; an empty uploader sends nothing
        return None
    return state


@dataclass
class StreamlitTab:
    """One session of the app, as one browser tab holds it."""

    url: str
    socket: ClientConnection
    query: dict[str, str] = field(default_factory=dict)
    page: str = ""  # page_script_hash on show ("" until the server names one)
    main_script_hash: str = ""
    pages: dict[str, str] = field(default_factory=dict)  # page title -> page_script_hash
    widgets: dict[str, WidgetState] = field(default_factory=dict)  # widget id -> value sent with reruns
    # widget id -> (kind, proto or a tab container's label on show, page_script_hash that drew it)
    drawn_widgets: dict[str, tuple[str, object, str]] = field(default_factory=dict)
    cache: dict[str, list] = field(default_factory=dict)  # hash -> [ForwardMsg, run count when last used]
    runs_finished: int = 0
    max_cached_message_age: int = 2

    @classmethod
    async def open(cls, url: str) -> "StreamlitTab":
        socket = await connect(url.replace("http", "ws", 1) + "/_stcore/stream", origin=url,
                               subprotocols=["streamlit"], max_size=None, open_timeout=60)
        return cls(url, socket)

    async def close(self) -> None:
        await self.socket.close()

    # What the user does -------------------------------------------------------------------------

    def widget(self, key: str) -> tuple[str, object]:
        """The kind and proto of the widget of the last run whose id ends with `key`."""
        found = [(kind, proto) for wid, (kind, proto, _) in self.drawn_widgets.items() if wid.endswith(f"-{key}")]
        if len(found) != 1:
            raise ProtocolError(f"{len(found)} widgets with the key {key!r} in the last run")
        return found[0]

    def slider_value(self, key: str, value: float) -> WidgetState:
        """The state a slider sends when dragged to `value`; a bound one also writes the address bar."""
        kind, proto = self.widget(key)
        if kind != "slider" or not proto.min <= value <= proto.max:
            raise ProtocolError(f"{key!r} is a {kind} from {proto.min} to {proto.max}, not a slider at {value}")
        state = WidgetState(id=proto.id)
        state.double_array_value.data[:] = [value]
        if proto.query_param_key:
            self.query.pop(proto.query_param_key, None)
            if [value] != list(proto.default):
                self.query[proto.query_param_key] = f"{value:g}"
        return state

    def select(self, key: str, containing: str) -> WidgetState:
        """The state a selectbox or radio sends when the option whose label contains `containing` is picked."""
        kind, proto = self.widget(key)
        labels = [option for option in proto.options if containing in option] if kind in CHOICE_WIDGETS else []
        if len(labels) != 1:
            raise ProtocolError(f"{key!r} ({kind}) has {len(labels)} options containing {containing!r}")
        return WidgetState(id=proto.id, string_value=labels[0])

    def click(self, key: str) -> WidgetState:
        kind, proto = self.widget(key)
        if kind != "button":
            raise ProtocolError(f"{key!r} is a {kind}, not a button")
        return WidgetState(id=proto.id, trigger_value=True)

    def page_hash(self, title: str) -> str:
        if title not in self.pages:
            raise ProtocolError(f"no page titled {title!r}; the app has {sorted(self.pages)}")
        return self.pages[title]

    # The protocol ---------------------------------------------------------------------------------

    async def rerun(self, changes: list[WidgetState] = (), page: str | None = None, timeout: float = 300.0) -> Run:
        """Send a rerun with every widget's value (`changes` applied), and read until the run ends."""
        states = dict(self.widgets)
        if page is not None and page != self.page:  # the browser clears the page's widgets and parameters
            states = {wid: state for wid, state in states.items() if self.drawn_widgets[wid][2] == self.main_script_hash}
            bound = {proto.query_param_key for _, proto, _ in self.drawn_widgets.values()
                     if getattr(proto, "query_param_key", "")}
            self.query = {name: value for name, value in self.query.items() if name in bound}
        for change in changes:
            states[change.id] = change
            if change.WhichOneof("value") != "trigger_value":  # a click is sent once; a value is held
                self.widgets[change.id] = change
        message = BackMsg()
        client = message.rerun_script
        client.query_string = urlencode(self.query)
        client.page_script_hash = page if page is not None else self.page
        client.widget_states.widgets.extend(states.values())
        client.cached_message_hashes.extend(self.cache)
        client.context_info.CopyFrom(ContextInfo(timezone="UTC", timezone_offset=0, locale="en-US",
                                                 url=f"{self.url}/?{client.query_string}", is_embedded=False,
                                                 color_scheme="light"))
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        return await self._read_run(start, timeout)

    async def _read_run(self, start: float, timeout: float) -> Run:
        elements: dict[tuple[int, ...], Element] = {}
        blocks: dict[tuple[int, ...], object] = {}
        scripts: dict[tuple[int, ...], str] = {}
        while True:
            message = self._resolve(ForwardMsg.FromString(await self._receive(timeout)))
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self._start_run(message.new_session)
                elements, blocks, scripts = {}, {}, {}
            elif kind == "delta":
                path = tuple(message.metadata.delta_path)
                delta = message.delta
                if delta.WhichOneof("type") == "new_element":
                    elements[path] = delta.new_element
                elif delta.WhichOneof("type") == "add_block":
                    blocks[path] = delta.add_block
                scripts[path] = message.metadata.active_script_hash
            elif kind == "navigation":  # st.navigation's pages
                self.pages = {page.page_name: page.page_script_hash for page in message.navigation.app_pages}
            elif kind == "page_info_changed":
                self.query = dict(parse_qsl(message.page_info_changed.query_string, keep_blank_values=True))
            elif kind == "script_finished" and message.script_finished in RUN_ENDS:
                self._finish_run(elements, blocks, scripts)
                return Run(message.script_finished, elements, blocks, time.perf_counter() - start)
            elif kind == "session_event" and message.session_event.WhichOneof("type") == "script_compilation_exception":
                raise ProtocolError(f"the app did not compile: {message.session_event}")

    async def _receive(self, timeout: float) -> bytes:
        data = await asyncio.wait_for(self.socket.recv(), timeout)
        if isinstance(data, str):
            raise ProtocolError("the server sent a text frame; Streamlit sends binary protobufs")
        return data

    def _resolve(self, message: ForwardMsg) -> ForwardMsg:
        """Keep what the server marked cacheable; answer a ref_hash from what is kept, as the browser does."""
        if message.WhichOneof("type") == "ref_hash":
            if message.ref_hash not in self.cache:
                raise ProtocolError(f"ref_hash {message.ref_hash} was never sent or has expired here")
            entry = self.cache[message.ref_hash]
            entry[1] = self.runs_finished
            resolved = ForwardMsg()
            resolved.CopyFrom(entry[0])
            resolved.metadata.CopyFrom(message.metadata)  # the reference carries this run's delta path
            return resolved
        if message.metadata.cacheable and message.hash:
            self.cache.setdefault(message.hash, [message, self.runs_finished])[1] = self.runs_finished
        return message

    def _start_run(self, session) -> None:
        self.page = session.page_script_hash
        self.main_script_hash = session.main_script_hash
        self.max_cached_message_age = session.config.max_cached_message_age

    def _finish_run(self, elements: dict, blocks: dict, scripts: dict) -> None:
        protos: dict[str, tuple[str, object, str]] = {}
        for path, element in elements.items():
            kind = element.WhichOneof("type")
            proto = getattr(element, kind)
            if getattr(proto, "id", ""):
                protos[proto.id] = (kind, proto, scripts[path])
        for path, block in blocks.items():
            kind = block.WhichOneof("type")
            proto = getattr(block, kind) if kind else None
            if kind == "tab_container" and proto.id:  # tabs with a key are a widget: the label on show
                labels = [tab.tab.label for tab_path, tab in sorted(blocks.items())
                          if tab_path[:-1] == path and tab.WhichOneof("type") == "tab"]
                if proto.default_tab_index < len(labels):
                    protos[proto.id] = (kind, labels[proto.default_tab_index], scripts[path])
        held = {wid: state for wid, state in self.widgets.items() if wid in protos}
        for wid, (kind, proto, _) in protos.items():
            if wid not in held or getattr(proto, "set_value", False):
                state = _initial_value(wid, kind, proto)
                if state is not None:
                    held[wid] = state
        self.widgets, self.drawn_widgets = held, protos
        self.runs_finished += 1
        self.cache = {key: entry for key, entry in self.cache.items()
                      if self.runs_finished - entry[1] <= self.max_cached_message_age}

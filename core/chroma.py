"""One factory for the Chroma client: embedded on disk (default), a server by configuration, or in memory.

Chroma's default embedding function downloads a model, so every collection here is created with
embedding_function=None and callers always pass their own embeddings.

A PersistentClient directory must have one writing process at a time (Chroma is not process-safe there);
concurrent runs in one process share a client safely, and concurrent processes should use a Chroma server
(PONDER_CHROMA_HOST / PONDER_CHROMA_PORT / PONDER_CHROMA_TOKEN).

Every request to a server goes through one guard: a server that cannot be reached, stops answering, drops the
connection or refuses the token raises ChromaServerError, one line naming the server, which the CLI prints as is.
chromadb is imported when a client is made (about 3 s): the CLI imports this module for ChromaServerError alone.
"""
from __future__ import annotations

import contextlib
import fcntl
from pathlib import Path

from core.paths import StorageError, ponder_home, writable_dir
from core.settings import load_settings

_SETTINGS = dict(anonymized_telemetry=False, allow_reset=False)


class ChromaServerError(RuntimeError):
    """The Chroma server (PONDER_CHROMA_HOST) cannot be reached, stopped answering or refused the credentials."""


def make_client(mode: str | None = None, path: str | Path | None = None):
    """mode: "persistent" (default), "http" (default when PONDER_CHROMA_HOST is set) or "memory" (tests).

    "memory" is one shared in-process instance: callers keep apart by run id / collection name.
    """
    import chromadb
    from chromadb.config import Settings

    settings = load_settings()
    mode = mode or ("http" if settings.chroma_host else "persistent")
    if mode == "memory":
        return chromadb.EphemeralClient(settings=Settings(**_SETTINGS))
    if mode == "http":
        return _http_client(settings)
    if mode == "persistent":
        return _persistent_client(Path(path) if path else ponder_home() / "chroma")
    raise ValueError(f"unknown Chroma mode {mode!r}: use persistent, http or memory")


def _persistent_client(target: Path):
    """Opening a client runs Chroma's schema migrations; two processes opening a new directory at once race
    ("table collections already exists", measured 3 of 32 opens). A file lock makes them take turns."""
    import chromadb
    from chromadb.config import Settings

    writable_dir(target, "the Chroma store")
    with _lock_file(target / ".ponder-open.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or by the OS if the process dies
        _check_store(target)  # before Chroma, which would write its tables into any SQLite file it finds
        try:
            return chromadb.PersistentClient(path=str(target), settings=Settings(**_SETTINGS))
        except BaseException as exc:  # chromadb's errors for a damaged or foreign database; its Rust
            # core panics (pyo3's PanicException is a BaseException)
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            why = (str(exc).strip() or type(exc).__name__).splitlines()[0]
            if "locked" in why.lower():  # not damage: another process holds the database
                raise StorageError(f"the store at {target} is busy (another ponder process?): {why}") from exc
            raise StorageError(_unreadable(target, why)) from exc


def _lock_file(path: Path):
    try:
        return open(path, "w")  # the caller's with-block closes it
    except OSError as exc:
        raise StorageError(f"the Chroma store {path.parent} is not writable: {exc.strerror or exc}") from None


def _unreadable(target: Path, why: str) -> str:
    return (f"the store at {target} is not a Chroma store Ponder can read (made by another version?): {why}; "
            "move it aside to start a new one")


# Tables and columns every Chroma store has had since its SQLite layout (0.4); Chroma's Rust core panics without them.
_CHROMA_COLUMNS = {"migrations": {"dir", "version", "filename", "hash"}, "collections": {"id", "name"}}


def _check_store(target: Path) -> None:
    """Refuse, reading only, a chroma.sqlite3 that is not a database or is another program's: Chroma would write its
    own tables into it."""
    import sqlite3

    database = target / "chroma.sqlite3"
    if not database.exists():
        return  # a new store
    if not database.is_file():
        raise StorageError(_unreadable(target, f"{database.name} is not a file"))
    try:
        with contextlib.closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            columns = {table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                       for table in _CHROMA_COLUMNS if table in tables}
    except sqlite3.Error as exc:
        raise StorageError(_unreadable(target, str(exc))) from None
    if not tables:
        return  # an empty database: Chroma makes its tables
    if set(_CHROMA_COLUMNS) - tables:
        raise StorageError(_unreadable(target, f"its tables ({', '.join(sorted(tables)[:6])}) are not Chroma's"))
    for table, needed in _CHROMA_COLUMNS.items():
        missing = sorted(needed - columns[table])
        if missing:
            raise StorageError(_unreadable(target, f"its {table} table has no {', '.join(missing)}"))


def _http_client(settings):
    import chromadb
    import httpx
    from chromadb.config import Settings

    token = settings.chroma_token.get_secret_value() if settings.chroma_token else None
    headers = {"Authorization": f"Bearer {token}"} if token else None
    host = settings.chroma_host or "localhost"
    server = host if "://" in host else f"{host}:{settings.chroma_port}"
    base = host if "://" in host else f"{'https' if settings.chroma_ssl else 'http'}://{server}"
    # Chroma's client makes its first requests while it is constructed, with no timeout at all: ask the server
    # first ourselves, with one, so a dead, hung or token-refusing server is one clear line at once.
    with httpx.Client(timeout=settings.chroma_timeout, headers=headers) as probe:
        _guarded(probe.request, server, settings.chroma_timeout)("GET", f"{base.rstrip('/')}/api/v2/auth/identity")
    try:
        client = chromadb.HttpClient(host=host, port=settings.chroma_port, ssl=settings.chroma_ssl, headers=headers,
                                     settings=Settings(**_SETTINGS))
    except Exception as exc:  # chromadb wraps what went wrong in a ValueError
        raise ChromaServerError(f"the Chroma server at {server} cannot be used: {exc}") from exc
    session = getattr(getattr(client, "_server", None), "_session", None)
    if session is not None and not getattr(session, "_ponder_guarded", False):
        session.timeout = httpx.Timeout(settings.chroma_timeout)  # every network call of ours must have one
        session.request = _guarded(session.request, server, settings.chroma_timeout)
        session._ponder_guarded = True  # clients of one server share the session: guard it once
    return client


def _guarded(request, server: str, timeout: float):
    """request (httpx's), raising ChromaServerError naming the server for what is the server's, not ours."""
    import httpx

    def guarded(method, url, *args, **kwargs):
        try:
            response = request(method, url, *args, **kwargs)
        except httpx.TimeoutException as exc:
            raise ChromaServerError(f"the Chroma server at {server} did not answer within {timeout:g} s "
                                    "(PONDER_CHROMA_TIMEOUT)") from exc
        except httpx.ConnectError as exc:
            raise ChromaServerError(f"cannot reach the Chroma server at {server} ({_reason(exc)}); is it running? "
                                    "(PONDER_CHROMA_HOST, PONDER_CHROMA_PORT)") from exc
        except httpx.TransportError as exc:
            raise ChromaServerError(f"lost the connection to the Chroma server at {server} "
                                    f"({_reason(exc)})") from exc
        if response.status_code in (401, 403):
            raise ChromaServerError(f"the Chroma server at {server} refused the credentials (HTTP "
                                    f"{response.status_code}); check PONDER_CHROMA_TOKEN")
        return response
    return guarded


def _reason(exc: BaseException) -> str:
    """The innermost message: "[Errno 111] Connection refused" rather than httpx's wrapper around it."""
    for _ in range(10):  # a chain, not a cycle; bounded all the same
        if (exc.__cause__ or exc.__context__) is None:
            break
        exc = exc.__cause__ or exc.__context__
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def get_collection(client, name: str, **metadata):
    """A cosine collection that never embeds by itself (we always pass embeddings).

    metadata is set only when the collection is created; use collection.modify to change it later.
    """
    return client.get_or_create_collection(name=name, embedding_function=None,
                                           configuration={"hnsw": {"space": "cosine"}},
                                           metadata=metadata or None)

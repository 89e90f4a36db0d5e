"""The store's one error type (its own module, so every store module can raise it
without importing the ingest)."""


class StoreError(Exception):
    """A store that cannot be opened or written (one sentence for the user)."""


def interrupted(e: BaseException) -> bool:
    """Whether ``e`` is a Ctrl-C: a ``KeyboardInterrupt``, or the error DuckDB raises in its
    stead when the Ctrl-C comes during a statement of the main thread (it takes the signal
    and raises ``RuntimeError('Query interrupted')``)."""
    return isinstance(e, KeyboardInterrupt) or (type(e) is RuntimeError and str(e) == "Query interrupted")

"""The store's one error type (its own module, so every store module can raise it
without importing the ingest)."""


class StoreError(Exception):
    """A store that cannot be opened or written (one sentence for the user)."""

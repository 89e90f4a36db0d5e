"""The history store: DuckDB ingest, the read-only query guard, the anomaly runner and its SQL.

Tables and their grain are in ``docs/store.md``; :mod:`paipu.store.tables` defines them, :mod:`paipu.store.ingest` loads
games, :mod:`paipu.store.anomalies` runs ``sql/<code>.sql``.
"""

from .errors import StoreError
from .ingest import DEFAULT_BATCH_EVENTS, DEFAULT_BATCH_GAMES, DEFAULT_DB, IngestReport, ingest, table_counts
from .tables import connect, schema_markdown

__all__ = ["DEFAULT_BATCH_EVENTS", "DEFAULT_BATCH_GAMES", "DEFAULT_DB", "IngestReport", "StoreError", "connect", "ingest", "schema_markdown",
           "table_counts"]

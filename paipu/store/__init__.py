"""The history store: DuckDB ingest, the read-only query guard, the anomaly runner and its SQL.

Tables and their grain are in ``docs/store.md``; :mod:`paipu.store.ingest` loads
games, :mod:`paipu.store.anomalies` runs ``sql/<code>.sql``.
"""

from .ingest import (  # noqa: F401
    DEFAULT_BATCH_EVENTS, DEFAULT_DB, IngestReport, StoreError, connect, ingest, schema_markdown,
    table_counts,
)

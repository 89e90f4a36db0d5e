"""Fixtures tests in several packages share."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def client():
    """A Dask LocalCluster of two worker processes (one thread each), and its client."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        yield c

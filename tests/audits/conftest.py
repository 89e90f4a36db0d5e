"""Fixtures the audit tests share."""

from __future__ import annotations

import gzip

import pytest

from paipu.sim.simulate import SimConfig, simulate_games
from schema.reader import encode_events
from tests.audits.helpers import faulty_games, interleave, selfdraw_game


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder of logs in every shape the reader takes: simulated, interleaved, faulty, gzip,
    CRLF, and a cut-off gzip."""
    d = tmp_path_factory.mktemp("logs")
    games = list(simulate_games(SimConfig(games=12, seed=3, options={"dianji": True}, max_hands=3)))
    sim = [encode_events(g) for g in games]
    (d / "a-sim.jsonl").write_bytes(b"".join(sim[:6]))
    (d / "b-interleaved.jsonl").write_bytes(interleave(*sim[6:10]))
    (d / "c-faulty.jsonl").write_bytes(faulty_games())
    with gzip.open(d / "d-sim.jsonl.gz", "wb") as f:
        f.write(b"".join(sim[10:]))
    (d / "e-crlf.jsonl").write_bytes(selfdraw_game("h-crlf").jsonl().replace(b"\n", b"\r\n"))
    (d / "f-broken.jsonl.gz").write_bytes(gzip.compress(b"".join(sim[:2]))[:300])
    return d

"""The small ones of issue 35: a waivers file that is not UTF-8 or nests too deeply is one
sentence (exit 2; the pytest plugin: a usage error); ``audit`` advises only options it has;
``query -o`` does not overwrite a store or a file that is not an earlier output without --force."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

from paipu import store
from tests.paipu.test_store import dianji_game, write
from tests.reliability.helpers import ROOT, paipu


@pytest.fixture
def log(tmp_path):
    return write(tmp_path / "a.jsonl", dianji_game("g1"))


@pytest.fixture(params=["not_utf8", "deep"])
def bad_waivers(request, tmp_path):
    path = tmp_path / "waivers.toml"
    if request.param == "not_utf8":
        path.write_bytes(b"\xff\xfe[[waiver]]\ncode = \"X\"\n")
    else:
        path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    return str(path), request.param


def test_a_bad_waivers_file_is_one_sentence_exit_2(log, bad_waivers):
    path, kind = bad_waivers
    r = paipu("audit", log, "--waivers", path)
    assert r.returncode == 2, r.stderr
    err = r.stderr.decode()
    assert "Traceback" not in err and "internal error" not in err
    assert ("is not UTF-8 text" if kind == "not_utf8" else "nests its values too deeply") in err
    assert err.count("\n") == 1


def test_the_pytest_plugin_makes_it_a_usage_error(log, bad_waivers):
    path, _kind = bad_waivers
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--paipu", log,
                        "--paipu-waivers", path, "-q"], cwd=ROOT, capture_output=True, timeout=300)
    out = (r.stdout + r.stderr).decode()
    assert r.returncode == 4, out  # pytest's usage error
    assert "INTERNALERROR" not in out and "waivers file" in out


def test_a_good_waivers_file_is_read_near_miss(tmp_path, log):
    path = tmp_path / "ok.toml"
    path.write_text("[audit]\nfail-on = \"error\"\n", encoding="utf-8")
    r = paipu("audit", log, "--waivers", str(path))
    assert r.returncode in (0, 1) and "Verdict (fail on error)" in r.stdout.decode() and not r.stderr


def test_audit_does_not_advise_an_option_it_lacks(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_bytes(dianji_game("g1").jsonl() + b'{"game": "g2", "x": "' + b"a" * 2_000_000 + b'"}\n')
    r = paipu("audit", str(path))
    err = (r.stdout + r.stderr).decode()
    assert "line too long" in err
    assert "--max-line-bytes of paipu ingest" in err
    assert "--max-line-bytes" not in paipu("audit", "--help").stdout.decode()  # audit has no such option


@pytest.fixture
def db(tmp_path, log):
    path = str(tmp_path / "s.duckdb")
    store.ingest([log], path, audit=False)
    return path


def test_query_output_does_not_overwrite_another_store(tmp_path, db, log):
    other = str(tmp_path / "other.duckdb")
    duckdb.connect(other).close()
    r = paipu("query", "--db", db, "SELECT 1 AS x", "-f", "csv", "-o", other)
    assert r.returncode == 2 and "is a DuckDB database" in r.stderr.decode()
    assert duckdb.connect(other).execute("SELECT 1").fetchone() == (1,)  # still a store
    # a log is not an output either
    r = paipu("query", "--db", db, "SELECT 1 AS x", "-f", "csv", "-o", log)
    assert r.returncode == 2 and "does not look like a csv output" in r.stderr.decode()
    assert open(log, "rb").read().startswith(b"{")


def test_force_overwrites_and_an_earlier_output_is_overwritten_near_miss(tmp_path, db):
    out = tmp_path / "x.csv"
    out.write_text("old\n")
    assert paipu("query", "--db", db, "SELECT 1 AS x", "-f", "csv", "-o", str(out)).returncode == 0
    assert out.read_text().splitlines() == ["x", "1"]
    other = str(tmp_path / "other.duckdb")
    duckdb.connect(other).close()
    assert paipu("query", "--db", db, "SELECT 1 AS x", "-f", "csv", "-o", other, "--force").returncode == 0
    # never the store itself, --force or not
    r = paipu("query", "--db", db, "SELECT 1 AS x", "-f", "csv", "-o", db, "--force")
    assert r.returncode == 2 and "store's own file" in r.stderr.decode()

"""The block-wise grouping of clean blocks gives exactly the line-by-line grouping."""

import random

from schema import reader
from schema.builder import GameBuilder
from schema.reader import GameLog, LogProblem, LogReader, iter_lines


def _game(gid: str) -> list[bytes]:
    b = GameBuilder(gid)
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m1234p5p", "123456789p123s", "123456789s1234z", "5555z666z777z1m")
    b.close("dissolved", [0, 0, 0, 0])
    return b.jsonl().splitlines(keepends=True)


def _reference(path: str) -> list[tuple]:
    """The grouping rule, one line at a time."""
    open_games: dict[str, GameLog] = {}
    out = []
    for n, item in iter_lines(path):
        assert type(item) is not LogProblem
        log = open_games.get(item.game)
        if log is None:
            log = open_games[item.game] = GameLog(item.game, path)
        log.events.append(item)
        log.lines.append(n)
        if type(item).__name__ == "GameClosed":
            log.closed = True
            out.append(open_games.pop(item.game))
    out.extend(open_games.values())
    return [(g.game, g.events, g.lines, g.closed) for g in out]


def test_interleaved_runs_and_reused_ids_group_like_the_line_loop(tmp_path, monkeypatch):
    rng = random.Random(5)
    queues = [_game(f"g{k}") for k in range(6)] + [_game("g0")]  # g0 again after it closed
    queues[-1] = queues[-1][:-1]  # ... and truncated
    lines = []
    while any(queues):
        q = rng.choice([q for q in queues if q])
        for _ in range(rng.randint(1, 4)):
            if q:
                lines.append(q.pop(0))
    p = tmp_path / "mixed.jsonl"
    p.write_bytes(b"".join(lines))
    for chunk in (1 << 22, 700, 97):  # one block, and blocks that cut runs
        monkeypatch.setattr(reader, "CHUNK_BYTES", chunk)
        got = [(g.game, g.events, g.lines, g.closed) for g in LogReader([str(p)]).games()]
        assert got == _reference(str(p))

"""``paipu simulate`` and ``paipu mutate``: reference logs and logs with one planted fault."""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Optional

import typer

from schema.ruleset import PRESETS, RulesetError, parse_options

from .console import fail as _fail


def simulate_cmd(
    preset: str = typer.Option("qujing-xiaoji", "--preset", "-p", help=f"One of: {', '.join(PRESETS)}."),
    option: Optional[list[str]] = typer.Option(None, "--option", help="A ruleset option key=value (repeatable)."),
    games: int = typer.Option(1, "--games", "-n", min=1, help="Rooms to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="Random seed: the same seed gives the same file."),
    output: str = typer.Option(..., "--output", "-o", help="The .jsonl (or .jsonl.gz) log to write."),
    hands: Optional[int] = typer.Option(8, "--hands", min=1,
                                        help="Hands per room (20分敲锣 may end a room earlier)."),
    players: int = typer.Option(4, "--players", help="4, or 3 (a 4-seat room turned into a 3-seat room)."),
    no_wall: bool = typer.Option(False, "--no-wall", help="Do not log the wall order in HandStarted."),
    billing: str = typer.Option("creator", "--billing", help="creator or aa."),
    build: str = typer.Option("1.0", "--build", help="Server build name written in GameOpened."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (the file is the same for any -j)."),
    id_prefix: Optional[str] = typer.Option(
        None, "--id-prefix", help="Game ids are PREFIX + seed + number; default sim-PRESET-, so files of "
                                  "different presets can be ingested into one store."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not print the summary line."),
) -> None:
    """Play complete rooms with rule-abiding bots and write them as a correct server would."""
    from .sim.simulate import SimConfig, SimError, SimStats, simulate_encoded, write_log

    try:
        options = parse_options(option or [])
    except RulesetError as e:
        _fail(str(e))
    if players not in (3, 4):
        _fail(f"--players must be 3 or 4, not {players}")
    if billing not in ("creator", "aa"):
        _fail(f"--billing must be creator or aa, not {billing!r}")
    if options.get("players") not in (None, players):
        _fail("give the number of seats with --players, not --option players=…")
    # a game id names its room in every store: the preset in it keeps the rooms of two presets
    # simulated with the same seed apart
    prefix = f"sim-{preset}-" if id_prefix is None else id_prefix
    cfg = SimConfig(preset=preset, options=options, games=games, seed=seed, max_hands=hands, players=players,
                    include_wall=not no_wall, billing=billing, build=build, game_prefix=prefix)
    stats = SimStats()
    t0 = time.perf_counter()
    from .progress import Bar, wanted

    def rooms(bar: Bar):
        for room in simulate_encoded(cfg, stats, jobs):
            yield room
            bar.advance(note=f"{stats.hands:,} hands")

    try:
        with Bar("simulating", games, shown=wanted()) as bar:
            n = write_log(output, rooms(bar))
    except SimError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"cannot write {output}: {e.strerror or e}")
    dt = time.perf_counter() - t0
    if not quiet:
        rate = stats.hands / dt if dt > 0 else float("inf")
        typer.echo(f"wrote {output}: {summary_counts(stats)}, {n} events in {dt:.1f}s ({rate:.0f} hands/s)")


def summary_counts(stats) -> str:
    """Games, hands (won: someone won it; drawn: nobody did) and winners, counted apart: one
    hand has several winners under 一炮多响 and 血战到底."""
    return (f"{stats.games} games, {stats.hands} hands ({stats.wins} with a winner, {stats.draws} without), "
            f"{stats.winners} winners")


def mutate_cmd(
    input: Optional[str] = typer.Argument(None, help="A clean .jsonl log."),
    fault: Optional[str] = typer.Option(None, "--fault", "-f", help="The fault class (see --list)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="The mutated log to write."),
    seed: int = typer.Option(0, "--seed", "-s", help="Random seed choosing the game and the place."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Only this game id."),
    list_: bool = typer.Option(False, "--list", help="List the fault classes and exit."),
) -> None:
    """Plant one fault of class F in a clean log; write OUT and OUT.expected.json beside it.

    The first game (from a seeded random start) that has a place for the fault
    is mutated; the other games are written unchanged.
    """
    from schema.reader import encode_events, read_games

    from .sim.mutate import FAULTS, mutate

    if list_:
        for name, f in FAULTS.items():
            typer.echo(f"{name:30s} {f.code:32s} {f.description}")
        return
    if fault is None or output is None or input is None:
        _fail("give --fault F, the clean log IN and -o OUT (or --list)")
    if fault not in FAULTS:
        _fail(f"unknown fault class {fault!r}; known: {', '.join(FAULTS)}")
    try:
        logs, orphans = read_games([input])
    except OSError as e:
        _fail(f"cannot read {input}: {e.strerror or e}")
    if orphans:
        _fail(f"{orphans[0]}")
    bad = next((g for g in logs if g.problem is not None), None)
    if bad is not None:
        _fail(f"{bad.problem}; mutate takes a clean log")
    if game is not None:
        logs_ = [g for g in logs if g.game == game]
        if not logs_:
            _fail(f"no game {game!r} in {input}")
    else:
        logs_ = logs
    if not logs_:
        _fail(f"{input} holds no game")
    rng = random.Random(seed)
    start = rng.randrange(len(logs_))
    order = logs_[start:] + logs_[:start]
    done = None
    for g in order:
        res = mutate(g.events, fault, rng)
        if res is not None:
            done = (g.game, res)
            break
    if done is None:
        _fail(f"fault {fault!r} is not applicable: no game in {input} has the situation it needs "
              f"({FAULTS[fault].description})")
    gid, (events, expected) = done
    try:
        from .outfiles import open_output

        with open_output(output) as f:  # OUT.jsonl.gz is written gzip-compressed
            for g in logs:
                f.write(encode_events(events if g.game == gid else g.events))
        with open(output + ".expected.json", "w", encoding="utf-8") as f:
            json.dump({"fault": fault, "game": gid,
                       "findings": [{"code": c, "seq": s} for c, s in expected]}, f, indent=2)
            f.write("\n")
    except OSError as e:
        _fail(f"cannot write {output}: {e.strerror or e}")
    typer.echo(f"planted {fault} in game {gid}: expect " + ", ".join(f"{c} at seq {s}" for c, s in expected))


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` and ``mutate`` commands to the paipu app."""
    app.command("simulate")(simulate_cmd)
    app.command("mutate")(mutate_cmd)


if __name__ == "__main__":  # pragma: no cover
    _app = typer.Typer()
    register(_app)
    _app(sys.argv[1:])

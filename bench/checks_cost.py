"""What the audit's checks cost on top of the replay, per rule family (issue 37, cheaper checks).

    python bench/checks_cost.py                     # every registered family, 1,000 hands each
    python bench/checks_cost.py --hands 3000 --runs 5 --family qujing --profile

For each family of the registry (:data:`audits.rules.FAMILIES`, so a family added there
is measured too) a corpus is simulated over its presets (the mixes of ``bench/run.py``
where it names some, else each preset of the family with its default options), and in
the same run, the families taking turns, best of ``--runs`` CPU times each:

* the decode floor (msgspec into the typed events),
* the replay alone (every event through the reducer),
* the walker floor (the audit's walk with every check off: each event through the reducer),
* the full audit (1 job),
* the audit's time over the replay's (the target: at most 2×), what the checks cost (the audit
  less the walker floor) and what they may cost for the audit to stay within 2× the replay;
* then the audit's time over the replay's measured with the two side by side in one process
  (``bench/run.py``'s ``side_by_side``: turns of 1/40 of the games, so a slow spell of the
  machine falls on both), each round and the median (the figure returned to ``bench/run.py``).

``--by-event`` (on by default) adds, per family, a table of event type -> events, the
replay's and the audit's microseconds per event, and the checks' share (the audit's time
in the handler of that event type less the replay's time for it), timed around each
event.  ``--profile`` adds the cProfile top functions of the family's audit (own time).

Not part of the test suite (``bench/run.py`` prints the same rows).
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import gc
import os
import pstats
import statistics
import sys
import time
from typing import Callable, Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)


def family_mixes() -> dict[str, list[tuple[str, dict]]]:
    """Per registered family that the simulator plays: the (preset, options) mixes of its
    corpus.  ``bench/run.py``'s own mixes where it has them, else every preset of the
    family at its defaults (a new family is measured as soon as it is registered)."""
    from audits.rules import FAMILIES
    from paipu.sim.families import sim_families
    from schema.ruleset import PRESETS

    import run as bench_run  # bench/run.py (this directory is on sys.path when run as a script)

    known = {"qujing": bench_run.MIXES, "guangdong": bench_run.GUANGDONG_MIXES,
             "xuzhou": bench_run.XUZHOU_MIXES,
             "sichuan": [m for mixes in bench_run.SICHUAN_MIXES.values() for m in mixes]}
    playable = sim_families()
    got = {}
    for name in FAMILIES:
        if name not in playable:
            continue
        got[name] = known.get(name) or [(p, {}) for p, r in PRESETS.items() if r.family == name]
    return got


def cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def decode_floor(path: str) -> int:
    """msgspec decoding of every line into the typed events, nothing else."""
    import msgspec
    from schema.events import AnyEvent

    dec = msgspec.json.Decoder(AnyEvent)
    with open(path, "rb") as f:
        return len(dec.decode_lines(f.read()))


def replay_only(path: str) -> int:
    """The reader and the reducer alone: every event of every game applied, nothing judged."""
    return sum(replay_games(path))


def full_audit(path: str) -> str:
    """The 1-job audit (``audit_paths``); a digest of its findings (code, game, seq, seat) and the
    corrected ledgers, so two checkouts can be shown to judge alike."""
    import hashlib

    from audits import audit_paths

    h = hashlib.sha256()
    for a in audit_paths([path], jobs=1):
        h.update(repr(([(f.code, f.game, f.seq, f.seat) for f in a.findings], a.ledger)).encode())
    return h.hexdigest()[:12]


def walker_floor(path: str) -> int:
    """The audit's walk with every check switched off: the reader, the per-game context and each
    event through the reducer's checked path, nothing judged (not an audit: the floor under
    which no set of checks can bring it)."""
    import audits.audit as walker
    from audits import audit_paths

    def apply_only(ctx, e) -> None:
        ctx.apply(e)

    own, own_for = dict(walker.HANDLERS), walker.handlers_for
    walker.HANDLERS.update({t: apply_only for t in own})
    walker.handlers_for = lambda family: walker.HANDLERS
    try:
        return sum(len(a.findings) for a in audit_paths([path], jobs=1))
    finally:
        walker.HANDLERS.update(own)
        walker.handlers_for = own_for


def replay_games(path: str) -> Iterator[int]:
    """:func:`replay_only` a game at a time (each game's events, once applied), read and
    replayed with the cyclic collector set as the audit sets it (``audit_serial``: schema.collector),
    so the two are compared alike."""
    from replay import Replayer
    from schema.collector import few_collections
    from schema.reader import LogReader

    games = LogReader([path]).games()
    while True:
        with few_collections():
            log = next(games, None)
            if log is None:
                return
            r = Replayer()
            for e, line in zip(log.events, log.lines):
                r.apply(e, line)
        yield len(log.events)


def side_by_side_ratios(corpora: dict[str, tuple[str, int, int]], rounds: int) -> dict[str, list[float]]:
    """Per family, each round's audit/replay CPU ratio with the two passes side by side in this
    process (``bench/run.py``'s :func:`side_by_side`: turns of 1/40 of the games), so a slow spell
    of the machine falls on both."""
    from audits import audit_paths
    from paipu.progress import games_in

    import run as bench_run

    got: dict[str, list[float]] = {}
    for name, (path, _, _) in corpora.items():
        games = games_in([path])
        got[name] = []
        for _ in range(rounds):
            replay, audit = bench_run.side_by_side(lambda: replay_games(path),
                                                   lambda: audit_paths([path], jobs=1), (games, games))
            got[name].append(audit / replay)
    return got


STAGES: dict[str, Callable[[str], object]] = {"decode": decode_floor, "replay": replay_only, "walker": walker_floor,
                                              "audit": full_audit}


def measure(corpora: dict[str, tuple[str, int, int]], runs: int) -> dict[str, dict[str, float]]:
    """Best-of-``runs`` CPU seconds of the decode floor, the replay and the full audit of each
    family's corpus in this process, every family and stage taking turns in each round (the
    same machine state for all)."""
    best = {f: {s: float("inf") for s in STAGES} for f in corpora}
    for name, (path, _, _) in corpora.items():  # a warm-up: lazily built tables, imports
        best[name]["digest"] = full_audit(path)  # type: ignore[assignment]
    for _ in range(runs):
        for name, (path, _, _) in corpora.items():
            for stage, fn in STAGES.items():
                best[name][stage] = min(best[name][stage], cpu(lambda: fn(path)))
    return best


def child(path: str) -> None:
    """``--child``: one round of the three stages on ``path`` after a warm-up audit, in this
    process (whose ``sys.path`` starts with the checkout measured); JSON on stdout."""
    import json

    digest = full_audit(path)
    got = {stage: cpu(lambda: fn(path)) for stage, fn in STAGES.items()}
    got["digest"] = digest
    got["audits_from"] = os.path.dirname(os.path.dirname(sys.modules["audits"].__file__))
    print(json.dumps(got))


def measure_against(corpora: dict[str, tuple[str, int, int]], runs: int, trees: dict[str, str]
                    ) -> dict[str, dict[str, dict[str, float]]]:
    """Best-of-``runs`` CPU seconds of each stage per family for each checkout of ``trees``
    (label -> path), each round a fresh process per (family, checkout), the checkouts taking
    turns (the same harness, this file, measures both)."""
    import json
    import subprocess

    best = {label: {f: {s: float("inf") for s in STAGES} for f in corpora} for label in trees}
    for _ in range(runs):
        for name, (path, _, _) in corpora.items():
            for label, tree in trees.items():
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", tree, path],
                                     check=True, capture_output=True, text=True, cwd=tree).stdout
                got = json.loads(out.strip().splitlines()[-1])
                if os.path.realpath(got["audits_from"]) != os.path.realpath(tree):
                    raise SystemExit(f"the child measured {got['audits_from']}, not {tree}")
                b = best[label][name]
                for stage in STAGES:
                    b[stage] = min(b[stage], got[stage])
                b["digest"] = got["digest"]  # type: ignore[assignment]
    return best


def corpus_id(path: str) -> str:
    """A short hash of a corpus file: a findings digest is comparable only with one made from
    the same corpus (a cached corpus is kept while the simulator changes; one simulated afresh
    elsewhere may hold other games)."""
    import hashlib

    with open(path, "rb") as f:
        return hashlib.file_digest(f, "blake2b").hexdigest()[:8]


def print_ratios(corpora: dict[str, tuple[str, int, int]], best: dict[str, dict[str, float]],
                 label: str = "") -> None:
    print(f"  {'family':<10} {'hands':>6} {'events':>8} {'decode µs/ev':>13} {'replay µs/ev':>13} "
          f"{'walker µs/ev':>13} {'audit µs/ev':>12} {'audit/replay':>13} {'checks':>7} {'at 2×':>6}  "
          f"findings digest  corpus    {label}(target ≤ 2×)")
    for name, (path, events, hands) in corpora.items():
        b = best[name]
        us = {stage: 1e6 * b[stage] / events for stage in STAGES}
        # the checks: the audit less its walker floor; "at 2×": what the checks may cost for the
        # audit to be at most twice the replay
        print(f"  {name:<10} {hands:6d} {events:8d} {us['decode']:13.2f} {us['replay']:13.2f} "
              f"{us['walker']:13.2f} {us['audit']:12.2f} {b['audit'] / b['replay']:12.2f}× "
              f"{us['audit'] - us['walker']:7.2f} {2 * us['replay'] - us['walker']:6.2f}  {b.get('digest', ''):12}"
              f"     {corpus_id(path)}", flush=True)


# -- per event type ----------------------------------------------------------------------

def _replay_by_type(path: str) -> tuple[dict, dict]:
    """Seconds and counts of the reducer per event type (replay alone)."""
    from replay import Replayer
    from schema.reader import LogReader

    secs: dict = collections.defaultdict(float)
    count: dict = collections.Counter()
    clock = time.perf_counter
    for log in LogReader([path]).games():
        r = Replayer()
        for e, line in zip(log.events, log.lines):
            t = clock()
            r.apply(e, line)
            secs[type(e)] += clock() - t
            count[type(e)] += 1
    return secs, count


def _audit_by_type(path: str) -> dict:
    """Seconds of the audit's handler per event type (the reducer's share included): each
    handler the walker picks is timed around its call."""
    import audits.audit as walker
    from audits import audit_paths

    secs: dict = collections.defaultdict(float)
    clock = time.perf_counter
    timed_cache: dict = {}

    def timed(t: type, fn: Callable) -> Callable:
        key = (t, fn)
        got = timed_cache.get(key)
        if got is None:
            def got(ctx, e, fn=fn, t=t):
                s = clock()
                fn(ctx, e)
                secs[t] += clock() - s
            timed_cache[key] = got
        return got

    class Timed(dict):
        """The walker's handlers, each wrapped in a timer (looked up at each event, since the
        walker's dict may change in place at a hand's start)."""

        def __init__(self, inner: dict):
            super().__init__()
            self.inner = inner

        def __getitem__(self, t):
            return timed(t, self.inner[t])

        def __setitem__(self, t, fn):
            self.inner[t] = fn  # a family switching its observers (AuditContext.observing)

    own = walker.until_a_hand_starts
    walker.until_a_hand_starts = lambda full, family: Timed(own(full, family))
    try:
        sum(len(a.findings) for a in audit_paths([path], jobs=1))
    finally:
        walker.until_a_hand_starts = own
    return secs


def by_event_type(name: str, path: str, runs: int) -> None:
    """Print event type -> events, replay µs, audit µs, checks µs per event and the checks'
    share of the family's whole checks time (best of ``runs`` each)."""
    rep: dict = {}
    aud: dict = {}
    count: dict = {}
    for _ in range(max(1, runs)):
        s, count = _replay_by_type(path)
        for k, v in s.items():
            rep[k] = min(rep.get(k, float("inf")), v)
        a = _audit_by_type(path)
        for k, v in a.items():
            aud[k] = min(aud.get(k, float("inf")), v)
    checks = {k: max(0.0, aud.get(k, 0.0) - rep.get(k, 0.0)) for k in count}
    total = sum(checks.values()) or 1.0
    print(f"\n  {name}: event type -> time in the checks (handler time less the reducer's, timed per event; "
          f"the walker's own loop and the openings not included)")
    print(f"    {'event type':<20} {'events':>8} {'replay µs':>10} {'audit µs':>9} {'checks µs':>10} "
          f"{'checks s':>9} {'share':>6}")
    for k in sorted(count, key=lambda k: -checks[k]):
        n = count[k]
        print(f"    {k.__name__:<20} {n:8d} {1e6 * rep.get(k, 0) / n:10.2f} {1e6 * aud.get(k, 0) / n:9.2f} "
              f"{1e6 * checks[k] / n:10.2f} {checks[k]:9.3f} {checks[k] / total:6.1%}")
    print(f"    {'all':<20} {sum(count.values()):8d} {'':>10} {'':>9} {'':>10} {total:9.3f}", flush=True)


def profile(name: str, path: str, top: int) -> None:
    """The cProfile top functions (own time) of one audit of the family's corpus."""
    pr = cProfile.Profile()
    pr.enable()
    full_audit(path)
    pr.disable()
    st = pstats.Stats(pr)
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    print(f"\n  {name}: cProfile, own time (inflates per-call costs; shares of {total:.2f} s)")
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    for (file, line, fn), (_cc, nc, tt, _ct, _callers) in rows:
        where = os.path.relpath(file, ROOT) if file.startswith(ROOT) else os.path.basename(file)
        print(f"    {tt / total:6.1%}  {tt:7.3f} s  {nc:8d} calls  {where}:{line}({fn})")


def corpora_for(families: list[str], hands: int, seed: int) -> dict[str, tuple[str, int, int]]:
    import run as bench_run

    mixes = family_mixes()
    unknown = [f for f in families if f not in mixes]
    if unknown:
        raise SystemExit(f"no simulated family {', '.join(unknown)}; known: {', '.join(mixes)}")
    return {f: bench_run.build_corpus(hands, seed, mixes[f], f"checks-{f}") for f in families}


def rows(hands: int, seed: int, runs: int, families: list[str] | None = None, by_event: bool = False,
         top: int = 0, against: str | None = None) -> dict[str, float]:
    """Print the per-family rows (and the per-event tables, the profiles); return family ->
    audit/replay ratio (the median of the side-by-side rounds; with ``against``, of the best
    times).  ``against``: another checkout (``git worktree add /tmp/base main``),
    measured in the same run, taking turns with this one."""
    corpora = corpora_for(families or list(family_mixes()), hands, seed)
    if against:
        both = measure_against(corpora, runs, {"before": os.path.abspath(against), "after": ROOT})
        for label, best in both.items():
            print(f"\n  {label}: {both and (os.path.abspath(against) if label == 'before' else ROOT)}")
            print_ratios(corpora, best, f"{label} ")
        print("\n  audit/replay, before -> after:")
        for name in corpora:
            b, a = both["before"][name], both["after"][name]
            same = "same findings and ledgers" if b["digest"] == a["digest"] else "FINDINGS DIFFER"
            print(f"    {name:<10} {b['audit'] / b['replay']:5.2f}× -> {a['audit'] / a['replay']:5.2f}×  "
                  f"(audit {1e6 * b['audit'] / corpora[name][1]:.2f} -> {1e6 * a['audit'] / corpora[name][1]:.2f} "
                  f"µs/event; {same})", flush=True)
        return {name: both["after"][name]["audit"] / both["after"][name]["replay"] for name in corpora}
    best = measure(corpora, runs)
    print_ratios(corpora, best)
    print("\n  audit/replay with the two side by side (each round's ratio; the median):")
    medians = {}
    for name, ratios in side_by_side_ratios(corpora, max(runs, 3)).items():
        medians[name] = statistics.median(ratios)
        print(f"    {name:<10} {', '.join(f'{r:.2f}×' for r in sorted(ratios))}; median "
              f"{medians[name]:.2f}×  (target ≤ 2×)", flush=True)
    for name, (path, _, _) in corpora.items():
        if by_event:
            by_event_type(name, path, runs)
        if top:
            profile(name, path, top)
    return medians


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1000, help="hands of each family's corpus")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--family", action="append", help="only this family (repeatable); default: every one")
    ap.add_argument("--no-by-event", action="store_true", help="skip the per-event-type tables")
    ap.add_argument("--profile", type=int, nargs="?", const=20, default=0, metavar="TOP",
                    help="print the cProfile top TOP functions of each family's audit")
    ap.add_argument("--against", metavar="CHECKOUT",
                    help="also measure another checkout of paipu (before/after in the same run; "
                         "no per-event tables)")
    ap.add_argument("--child", nargs=2, metavar=("CHECKOUT", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[1])
        return
    rows(args.hands, args.seed, args.runs, args.family, not args.no_by_event and not args.against,
         args.profile, args.against)


if __name__ == "__main__":
    if "--child" in sys.argv:  # the checkout measured comes first on the path
        sys.path.insert(0, os.path.abspath(sys.argv[sys.argv.index("--child") + 1]))
    else:
        sys.path.insert(0, HERE)
    main()

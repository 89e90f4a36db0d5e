"""Generate the Qujing sample logs in ``sample_logs/``: ``python sample_logs/make_samples.py``.

* ``clean/``: small simulated rooms, one per preset and option, plus the seed's
  worked examples written move by move (点鸡 2,1,0,0; 养猪 1,2,0,0 with A
  self-drawing; 吃杠 and 碰杠 杠上开花 with the tail showing 2m and 4s);
* ``faulty/``: one file per fault class, planted by :func:`paipu.sim.mutate.mutate` into a
  clean simulated room.

Beside every log, ``NAME.expected.json`` states the findings the audit must
report (``[{game, code, seq}]``) and each game's final scores (as logged, and
as the audit's corrected ledger has them).  The scores, fans and settlements
in the hand-written examples are computed by the ruleset's family
(:func:`audits.rules.family_of`), never typed in.
"""

from __future__ import annotations

import json
import os
import random
from typing import Optional, Sequence

from audits.rules import family_of
from audits.rules.family import WinContext
from replay import Replayer
from schema import events as ev
from schema.builder import GameBuilder
from schema.tiles import TILE_INDEX, TILE_NAMES, full_set, parse_hand

from ..mutate import mutate
from ..simulate import SimConfig, simulate_games
from .faults import FAULTS

#: the repository's ``sample_logs/`` folder
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sample_logs")


class Script:
    """Writes one room move by move; fans and money come from the ruleset's family."""

    def __init__(self, game: str, preset: str = "qujing-xiaoji", options: Optional[dict] = None,
                 seats: Sequence[str] = ("A", "B", "C", "D"), creator: int = 0, start_points: int = 0,
                 fee: int = 4):
        self.b = GameBuilder(game, preset=preset, seats=seats, options=options or {}, creator=creator,
                             start_points=start_points, server="paipu-samples", build="1.0", fee=fee)
        self.r = Replayer()
        self.settled = 0
        self._do(self.b.open)

    def _do(self, method, *args, **kw) -> ev.Event:
        e = method(*args, **kw)
        self.r.apply(e)
        return e

    @property
    def table(self):
        """The live table (read only)."""
        return self.r.table

    @property
    def family(self):
        """The room's rule family (fans, settlement and billing come from it)."""
        return family_of(self.table.ruleset)

    # -- a hand ---------------------------------------------------------------

    def hand(self, number: int, dealer: int, hands: dict[int, str], draws: str = "", tail: str = "",
             bets: Optional[Sequence[int]] = None, keep_back: str = "") -> None:
        """Start a hand: the deal, then ``draws`` in wall order, ``keep_back`` kept at the
        far end of the wall (never drawn), and the tail pair (``tail``: wall[-1], wall[-2])."""
        n = len(self.table.players)
        order = [dealer] + [(dealer + k) % n for k in range(1, n)]
        left = full_set()
        wall: list[int] = []

        def take(tiles: list[int]) -> list[int]:
            for t in tiles:
                left.remove(t)
            return tiles

        dealt = {s: take(parse_hand(hands[s])) for s in order}
        for s in order:
            wall += dealt[s]
        wall += take([TILE_INDEX[x] for x in _split(draws)])
        tail_tiles = take([TILE_INDEX[x] for x in _split(tail)])
        back = take([TILE_INDEX[x] for x in _split(keep_back)])
        rng = random.Random(number)
        rng.shuffle(left)
        wall += left + back + tail_tiles[::-1]
        assert len(wall) == 136
        self.wall = wall
        self.head = sum(len(dealt[s]) for s in order)
        self.tail_next = 136 - 3
        self._do(self.b.hand, number, dealer, wall=wall)
        if bets is not None:
            for s, x in enumerate(bets):
                self._do(self.b.bet, s, x)
        self._do(self.b.deal, *[sorted(dealt[s]) for s in range(n)])
        self._do(self.b.tail, wall[-1], wall[-2])

    def draw(self, seat: int) -> int:
        t = self.wall[self.head]
        self.head += 1
        self._do(self.b.draw, seat, t)
        return t

    def discard(self, seat: int, tile) -> None:
        self._do(self.b.discard, seat, tile)

    def modda(self, seat: int, until_remaining: int) -> None:
        """摸打: from ``seat`` on, each seat draws and throws the drawn tile, until the
        remaining tiles are down to ``until_remaining``."""
        n = len(self.table.players)
        while self.table.undrawn > until_remaining:
            t = self.draw(seat)
            self.discard(seat, t)
            seat = (seat + 1) % n

    def replacement(self, seat: int, tile: str) -> None:
        """Take ``tile`` from the face-up tail after a kong; the next tail tile turns."""
        self._do(self.b.draw, seat, tile, "tail")
        self._do(self.b.tail, self.wall[self.tail_next])
        self.tail_next -= 1

    def self_draw_win(self, seat: int, tile: str, after_kong: bool = False) -> None:
        table = self.table
        tiles = [k for k in range(34) for _ in range(table.hands[seat][k])]
        sc = self.family.scoring.score(table.ruleset, tiles, table.melds[seat],
                                       WinContext("self_draw", TILE_INDEX[tile], after_kong=after_kong))
        assert sc.wins, sc
        self._do(self.b.win, [(seat, sc.fans, sc.fan, sc.points)], "self_draw", tile)
        self._settle([(seat, sc.points)], "self_draw", None)

    def win_on(self, seats: Sequence[int], tile: str, how: str, from_seat: int) -> None:
        """Winners on a discard (一炮多响) or on a robbed added kong (抢杠), each declared first."""
        table = self.table
        winners = []
        for seat in seats:
            self._do(self.b.declare, seat, "win")
        for seat in seats:
            tiles = [k for k in range(34) for _ in range(table.hands[seat][k])] + [TILE_INDEX[tile]]
            sc = self.family.scoring.score(table.ruleset, tiles, table.melds[seat], WinContext(how, TILE_INDEX[tile]))
            assert sc.wins, (seat, sc)
            winners.append((seat, sc))
        self._do(self.b.win, [(s_, sc.fans, sc.fan, sc.points) for s_, sc in winners], how, tile, from_seat)
        self._settle([(s_, sc.points) for s_, sc in winners], how, from_seat)

    def exhausted(self) -> None:
        """黄庄, reporting the remaining tiles as the ruleset's family counts them."""
        table = self.table
        self._do(self.b.exhausted, self.family.table.remaining(table.ruleset, table.undrawn, len(table.tail)))
        self._settle([], None, None)

    def _settle(self, winners, how, from_seat) -> None:
        table = self.table
        rules = table.ruleset
        family = self.family
        facts = family.settlement.hand_facts(rules, table.received, table.bets)
        settled = family.settlement.settle(rules, list(table.scores), winners, how, from_seat, facts)
        self._do(self.b.settle, settled.transfers, settled.scores)
        if self.settled == 0:
            op = self.r.opened
            for fe in family.billing.fees_at_first_settlement(op.billing, op.creator, op.fee, len(op.seats),
                                                              len(table.players)):
                self._do(self.b.fee if fe.kind == "charged" else self.b.refund, fe.seat, fe.amount)
        self.settled += 1

    def close(self) -> list[ev.Event]:
        self._do(self.b.close, "hands_done", list(self.table.scores))
        return self.b.events


def _split(text: str) -> list[str]:
    return [TILE_NAMES[t] for t in _parse_ordered(text)]


def _parse_ordered(text: str) -> list[int]:
    """Like parse_hand but keeps the written order (``"5s 2m"`` → [5s, 2m])."""
    out: list[int] = []
    for chunk in text.split():
        out.extend(parse_hand(chunk) if len(chunk) > 2 else [TILE_INDEX[chunk]])
    return out


# ---------------------------------------------------------------------------
# the seed's worked examples


def dianji_2100() -> list[ev.Event]:
    """点鸡: A holds 2 chickens, B 1, C and D none; the hand is drawn: +5, +1, −3, −3."""
    s = Script("dianji-2100", options={"dianji": True})
    s.hand(1, 0, {0: "1s1s 234m 567m 89p 2z3z 6z7z", 1: "1s 258m 369p 47s 1z2z3z 4z", 2: "369m 258p 2s5s8s 1z 5z6z7z",
                  3: "147m 147p 3s6s9s 1z2z3z4z"},
           keep_back="1s")
    s.discard(0, "7z")
    s.modda(1, 20)
    s.exhausted()
    return s.close()


def yangzhu_1200() -> list[ev.Event]:
    """养猪: bets A 1, B 2, C 0, D 0; A self-draws: on top of the points A collects 3 from B, 1 from C, 1 from D."""
    s = Script("yangzhu-1200", preset="qujing-baiban", options={"yangzhu": True})
    s.hand(1, 0, {0: "123m 456m 789m 234p 5p 9s", 1: "147m 258p 369s 1z2z3z 4z", 2: "258m 147p 258s 6z6z 1z 2z",
                  3: "369m 369p 147s 3z 4z 7z 7z"},
           draws="9m 1p 8m 5p", tail="2s 3s", bets=(1, 2, 0, 0))
    s.discard(0, "9s")
    for seat in (1, 2, 3):
        t = s.draw(seat)
        s.discard(seat, t)
    s.draw(0)
    s.self_draw_win(0, "5p")
    return s.close()


def chow_kong_kaihua() -> list[ev.Event]:
    """吃杠 杠上开花: tail 2m/4s; B holds 34m 4444p 222p 66p 67s; A (上家) throws 5s; B chows,
    konges 4444p, takes 2m from the tail and wins."""
    s = Script("chow-kong-kaihua", options={"chow": True})
    s.hand(1, 0, {0: "5s 19m 19p 9s 1z2z3z4z 5z6z7z 8m", 1: "34m 4444p 222p 66p 67s",
                  2: "2z3z4z 5z6z7z 8p 8p 7m 7m 1z 9s 8s", 3: "1z2z3z4z 5z6z7z 3p 3p 5m 5m 9m 7p"},
           tail="2m 4s")
    s.discard(0, "5s")
    s._do(s.b.declare, 1, "chow")
    s._do(s.b.chow, 1, 0, "5s", "67s")
    s._do(s.b.kong_concealed, 1, "4p")
    s.replacement(1, "2m")
    s.self_draw_win(1, "2m", after_kong=True)
    return s.close()


def pong_kong_kaihua() -> list[ev.Event]:
    """碰杠 杠上开花: tail 2m/4s; B holds 34m 4444p 22p 66p 567s; C throws 6p; B pongs,
    konges 4444p, takes 2m from the tail and wins."""
    s = Script("pong-kong-kaihua", creator=2)
    s.hand(1, 2, {1: "34m 4444p 22p 66p 567s", 2: "6p 19m 19p 9s 1z2z3z4z 5z6z7z 8m",
                  3: "2z3z4z 5z6z7z 8p 8p 7m 7m 1z 9s 8s", 0: "1z2z3z4z 5z6z7z 3p 3p 5m 5m 9m 7p"},
           tail="2m 4s")
    s.discard(2, "6p")
    s._do(s.b.declare, 1, "pong")
    s._do(s.b.pong, 1, 2, "6p")
    s._do(s.b.kong_concealed, 1, "4p")
    s.replacement(1, "2m")
    s.self_draw_win(1, "2m", after_kong=True)
    return s.close()


def multi_win() -> list[ev.Event]:
    """一炮多响: A (dealer) throws 5p; B and C both win on it; A pays B, then C (seat order from A's next); A deals next."""
    s = Script("multi-win")
    s.hand(1, 0, {0: "5p 19m 19p 9s 2z3z4z 5z6z7z 8m 8p", 1: "123m 456m 789m 1z1z1z 5p",
                  2: "234s 567s 789s 2z2z2z 5p", 3: "3z4z 5z6z7z 3p3p 5m5m 9m 7p 6m 6m"},
           tail="2m 4s")
    s.discard(0, "5p")
    s.win_on([1, 2], "5p", "discard", 0)
    s.hand(2, 0, {0: "123m 456m 789m 234p 5p 9s", 1: "147m 258p 369s 1z2z3z 4z", 2: "258m 147p 258s 6z6z 1z 2z",
                  3: "369m 369p 147s 3z 4z 7z 7z"}, draws="9m 1p 8m 5p", tail="2s 3s")
    s.discard(0, "9s")
    for seat in (1, 2, 3):
        s.discard(seat, s.draw(seat))
    s.draw(0)
    s.self_draw_win(0, "5p")
    return s.close()


def robbed_kong() -> list[ev.Event]:
    """抢杠 with two robbers: B pongs 5p, later draws the fourth 5p and adds it; C and D both rob it; B pays 3 × P to each."""
    s = Script("robbed-kong")
    s.hand(1, 0, {0: "5p 19m 19p 9s 2z3z4z 5z6z7z 8m 8p", 1: "5p5p 1z1z1z 2z 3z 4z 6z 7z 9m 8s 7s",
                  2: "123m 456m 789m 34p 6z6z", 3: "234s 567s 789s 46p 7z7z"},
           draws="9p 5m 6m 5p", tail="2m 4s")
    s.discard(0, "5p")
    # C and D could win on the discard and pass (过胡 until their own next draw)
    s._do(s.b.pass_, 2, ["win"])
    s._do(s.b.pass_, 3, ["win"])
    s._do(s.b.declare, 1, "pong")
    s._do(s.b.pong, 1, 0, "5p")
    s.discard(1, "9m")
    for seat in (2, 3, 0):
        s.discard(seat, s.draw(seat))
    s.draw(1)
    s._do(s.b.kong_added, 1, "5p")
    s.win_on([2, 3], "5p", "robbed_kong", 1)
    return s.close()


# ---------------------------------------------------------------------------
# simulated rooms


CLEAN_SIM = [
    # name, config
    ("xiaoji_default", SimConfig(preset="qujing-xiaoji", games=1, seed=11, max_hands=3)),
    ("xiaoji_chow", SimConfig(preset="qujing-xiaoji", options={"chow": True}, games=1, seed=12, max_hands=3)),
    ("xiaoji_dianji", SimConfig(preset="qujing-xiaoji", options={"dianji": True}, games=1, seed=13, max_hands=3)),
    ("baiban_yangzhu", SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=1, seed=14, max_hands=3)),
    ("shuanggui_qiaoluo", SimConfig(preset="qujing-shuanggui", options={"qiaoluo": True}, games=1, seed=15,
                                    max_hands=3)),
    ("xiaoji_qiaoluo_5pts_knockout", SimConfig(preset="qujing-xiaoji", options={"qiaoluo": True, "qiaoluo_points": 5,
                                                                               "dianji": True},
                                               games=1, seed=20, max_hands=None)),
    ("xiaoji_3seats_dianji", SimConfig(preset="qujing-xiaoji", options={"dianji": True}, players=3, games=1,
                                       seed=16, max_hands=3)),
    ("baiban_chow_aa_billing", SimConfig(preset="qujing-baiban", options={"chow": True}, billing="aa", games=1,
                                         seed=17, max_hands=2)),
    ("xiaoji_cap5_base2_nowall", SimConfig(preset="qujing-xiaoji", options={"fan_cap": 5, "base": 2}, games=1,
                                           seed=18, max_hands=2, include_wall=False)),
    ("shuanggui_reserve_by_kongs", SimConfig(preset="qujing-shuanggui",
                                             options={"draw_reserve_by_kongs": [20, 14, 16],
                                                      "draw_reserve_counts_tail": False}, games=1, seed=19,
                                             max_hands=2)),
]

#: The clean room each fault class is planted in (chosen so the situation arises).
FAULT_SOURCES = {
    "chow_wrong_seat": SimConfig(preset="qujing-xiaoji", options={"chow": True}, games=12, seed=31, max_hands=2),
    "cap_not_applied": SimConfig(preset="qujing-shuanggui", games=2000, seed=34, max_hands=2),
    "dianji_wrong_amount": SimConfig(options={"dianji": True}, games=3, seed=35, max_hands=2),
    "yangzhu_wrong_amount": SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=3, seed=36,
                                      max_hands=2),
    "score_below_zero": SimConfig(preset="qujing-shuanggui", options={"qiaoluo": True, "qiaoluo_points": 5}, games=10, seed=37,
                                  max_hands=None),
    "game_not_ended_at_zero": SimConfig(preset="qujing-shuanggui", options={"qiaoluo": True, "qiaoluo_points": 5}, games=5, seed=38,
                                        max_hands=None),
    "win_during_guohu": SimConfig(games=200, seed=39, max_hands=2),
    "priority_inversion": SimConfig(games=100, seed=40, max_hands=2, options={"chow": True}),
    "guoshou_gang": SimConfig(games=100, seed=41, max_hands=2),
    "guoshou_peng": SimConfig(games=100, seed=42, max_hands=2),
    "zero_fan_discard_win": SimConfig(games=100, seed=43, max_hands=2),
    "no_exhaustive_draw": SimConfig(games=40, seed=44, max_hands=2),
    "remaining_misreported": SimConfig(games=40, seed=44, max_hands=2),
    "rob_during_guohu": SimConfig(games=400, seed=45, max_hands=3),
    "rob_late": SimConfig(games=100, seed=46, max_hands=3),
    "pig_bet_out_of_range": SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=3, seed=47,
                                      max_hands=2),
    "pig_bet_twice": SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=3, seed=48, max_hands=2),
    "pig_bet_after_deal": SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=3, seed=49,
                                    max_hands=2),
    "qiaoluo_start_points": SimConfig(options={"qiaoluo": True}, games=3, seed=50, max_hands=2),
}
#: 一炮多响 and 抢杠 are rare in play: those faults are planted in the hand-written rooms.
HANDWRITTEN_SOURCES = {"multi_win_wrong_order": multi_win, "qianggang_wrong_payer": robbed_kong}
DEFAULT_FAULT_SOURCE = SimConfig(games=4, seed=30, max_hands=2)


def _write(path: str, events: list[ev.Event], expected_findings: Optional[list[dict]] = None) -> None:
    """One event per line, keys in schema order; then NAME.expected.json from the audit."""
    from audits.audit import audit_game
    from schema.reader import encode_events, read_games

    with open(path, "wb") as f:
        f.write(encode_events(events))
    logs, _ = read_games([path])
    findings = []
    scores = {}
    for log in logs:
        a = audit_game(log)
        findings += [{"game": x.game, "code": x.code, "seq": x.seq} for x in a.findings]
        scores[log.game] = {"logged": a.logged_scores[-1] if a.logged_scores else None,
                            "ledger": a.ledger[-1] if a.ledger else None}
    if expected_findings is not None:
        want = sorted((d["game"], d["code"], d["seq"]) for d in expected_findings)
        got = sorted((d["game"], d["code"], d["seq"]) for d in findings)
        if want != got:
            print(f"  note {os.path.basename(path)}: planted {want}, audit says {got}")
    else:
        expected_findings = findings
    exp = {"findings": expected_findings, "final_scores": scores}
    with open(path[:-len(".jsonl")] + ".expected.json", "w", encoding="utf-8") as f:
        json.dump(exp, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main() -> None:
    clean = os.path.join(HERE, "clean")
    faulty = os.path.join(HERE, "faulty")
    os.makedirs(clean, exist_ok=True)
    os.makedirs(faulty, exist_ok=True)
    readme = ["# Sample logs", "", "Generated by `python sample_logs/make_samples.py`; beside each log, "
              "`NAME.expected.json` lists the findings the audit must report ([{game, code, seq}]) and each "
              "game's final scores (logged, and the audit's corrected ledger).", "", "## clean/", ""]
    examples = [("seed_dianji_2_1_0_0", dianji_2100), ("seed_yangzhu_bets_1_2_0_0_selfdraw", yangzhu_1200),
                ("seed_chow_kong_gangshang_kaihua", chow_kong_kaihua),
                ("seed_pong_kong_gangshang_kaihua", pong_kong_kaihua),
                ("multi_win_yipao_duoxiang", multi_win), ("qianggang_two_robbers", robbed_kong)]
    for name, fn in examples:
        _write(os.path.join(clean, name + ".jsonl"), fn(), [])
        readme.append(f"- `{name}.jsonl` — {' '.join((fn.__doc__ or '').split())}")
    for name, cfg in CLEAN_SIM:
        games = list(simulate_games(cfg))
        _write(os.path.join(clean, name + ".jsonl"), [e for g in games for e in g], [])
        opts = ", ".join(f"{k}={v}" for k, v in cfg.options.items()) or "default options"
        readme.append(f"- `{name}.jsonl` — simulated room: {cfg.preset}, {opts}, {cfg.players} seats, "
                      f"{cfg.billing} billing{', no wall' if not cfg.include_wall else ''}.")
    readme += ["", "## faulty/", ""]
    for fname, fault in FAULTS.items():
        rng = random.Random(fname)
        done = None
        if fname in HANDWRITTEN_SOURCES:
            sources = [HANDWRITTEN_SOURCES[fname]()]
        else:
            sources = simulate_games(FAULT_SOURCES.get(fname, DEFAULT_FAULT_SOURCE))
        for g in sources:
            res = mutate(g, fault, rng)
            if res is not None:
                done = res
                break
        if done is None:
            print(f"  skipped {fname}: not applicable in its source games")
            continue
        events, expected = done
        game = events[0].game
        _write(os.path.join(faulty, fname + ".jsonl"), events,
               [{"game": game, "code": c, "seq": s} for c, s in expected])
        readme.append(f"- `{fname}.jsonl` — {fault.description} → `{fault.code}`.")
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(readme) + "\n")

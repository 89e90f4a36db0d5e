"""The worked examples of wenzhou.md §12 as Wenzhou rooms, with the text's money, and the
seeded rooms coverage needs (天和, 单吊, 财神单钓 by self-draw, every dealer level).

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the
names, points and transfers typed in from the rules text, never computed by paipu: a
clean audit of these rooms checks paipu against the text.  ``EXAMPLES`` (clean),
``OPTION_ROOMS`` (one per option value that changes the money) and ``NEAR_MISSES`` (one
finding each) are what ``sample_logs/wenzhou`` writes and the tests audit.
Defaults: B = 1, ``lianzhuang = multiply`` (the spec's linear 1, 2, 3, 4), every loser pays.
"""

from __future__ import annotations

from typing import Callable, Union

from schema.builder import GameBuilder

from .scenes import WenzhouScene, reopened


def ex01_soft_discard(payers: str = "all") -> GameBuilder:
    """§12.1 indicator 东 (W = 东): seat 2 (123m 456m 789m 234s 6p 99s + a 财神) wins seat 1's
    7p, 软 ×1: each other seat pays 1, +3; with ``discarder_for_all`` seat 1 pays 3."""
    opts = {"discard_payers": "discarder_for_all"} if payers != "all" else None
    s = WenzhouScene("wz-ex01" + ("b" if opts else "a"), opts)
    s.hand(0, {2: "123m 456m 789m 234s 6p 99s 1z", 1: ""}, indicator="1z", reserve="7p", avoid="5p 7p 8p 6p 9s")
    s.discard(0)
    s.draw(1, "7p")
    s.discard(1, "7p")
    s.win([(2, ["ruanhu"], 0, 1)], "discard", "7p", from_seat=1)
    s.settle([(1, 2, 3, "win")] if opts else [(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")])
    return s.close()


def _dealer_self_draw(s: WenzhouScene, dealer: int, level: int, pay: int, indicator: str = "4z") -> None:
    """A hand the dealer wins hard on its first own draw (111m 234m 567p 789p 345s 8s + 8s): ×2,
    each other seat paying ``pay``."""
    s.hand(dealer, {dealer: "111m 234m 567p 789p 345s 8s"}, indicator=indicator, level=level, reserve="8s",
           avoid="8s 6s 7s 2s 9s")
    s.discard(dealer)
    s.go_around((dealer + 1) % 4, 3)
    s.draw(dealer, "8s")
    s.win([(dealer, ["yinghu"], 1, 2)], "self_draw", "8s")
    s.settle([((dealer + k) % 4, dealer, pay, "win") for k in (1, 2, 3)])


def _drawn_hand(s: WenzhouScene, dealer: int, level: int) -> None:
    """A hand played out (摸切) to the 16-tile reserve: 流局, no money."""
    s.hand(dealer, {}, indicator="9p", level=level)
    s.discard(dealer)
    s.until((dealer + 1) % 4, 16)
    s.drawn()


def ex02_dealer_level_2(jinjie: str = "multiply", logged: int = 2) -> GameBuilder:
    """§12.2 a drawn hand keeps seat 0 dealing at level 2 (draw_dealer = stay); W = 北 (none
    held): seat 0 self-draws 8s to a hard hand, ×2: each pays D_2 × 2 = 4, +12 (``jinjie2``:
    D_2 = 4, each pays 8, +24).  ``logged = 1``: hand 2 logged (and paid) at level 1
    (DEALER_ROTATION; the money, 2 each, is TRANSFER_MISMATCH at level 2: the corrected ledger
    has each pay 4)."""
    opts = {"lianzhuang": jinjie} if jinjie != "multiply" else None
    s = WenzhouScene("wz-ex02" + ("b" if opts else "a" if logged == 2 else "c"), opts)
    _drawn_hand(s, 0, 1)
    _dealer_self_draw(s, 0, logged, (8 if jinjie == "jinjie2" else 4) if logged == 2 else 2)
    return s.close()


def _five_pongs(s: WenzhouScene) -> None:
    """Seat 3 pongs seat 0's 1m, 2m, 3m, 4m and 5m (seat 0 the dealer), discarding a filler
    after each; it keeps one tile."""
    for t in ("1m", "2m", "3m", "4m", "5m"):
        if t != "1m":
            s.draw(0)
        s.discard(0, t)
        s.pong(3, 0, t)
        s.discard(3)


def ex03_dandiao(caishen_last: bool = False, on_discard: bool = False) -> GameBuilder:
    """§12.3 单吊: seat 3 pongs five times and holds 7s; seat 0 (the dealer) discards 7s: 单吊 ×4
    (硬): each pays 4, +12.  ``caishen_last``: its last tile is a 财神 (W = 2p): it self-draws
    7s and wins 单吊 ×4 (软); ``on_discard``: it wins seat 0's 7s instead, barred
    (WIN_CAISHEN_DANDIAO_DISCARD)."""
    name = "wz-ex03" + ("c" if on_discard else "b" if caishen_last else "a")
    s = WenzhouScene(name)
    last = "2p" if caishen_last else "7s"
    s.hand(0, {3: f"11m 22m 33m 44m 55m {last}", 0: "1m 2m 3m 4m 5m"}, indicator="2p",
           reserve="7s", avoid="7s 1m 2m 3m 4m 5m")
    _five_pongs(s)
    fans = ["ruanhu", "quanqiuren"] if caishen_last else ["yinghu", "quanqiuren"]
    if caishen_last and not on_discard:
        s.go_around(0, 3)
        s.draw(3, "7s")
        s.win([(3, fans, 2, 4)], "self_draw", "7s")
    else:
        s.draw(0, "7s")
        s.discard(0, "7s")
        s.win([(3, fans, 2, 4)], "discard", "7s", from_seat=0)
    s.settle([(0, 3, 4, "win"), (1, 3, 4, "win"), (2, 3, 4, "win")])
    return s.close()


def ex04_sancaishen(case: str = "a") -> GameBuilder:
    """§12.4 三财神 with ``jinjie1`` (W = 5s, dealer seat 0 at level 1, D_1 = 2): seat 1 draws
    the third 财神.  (a) no shape: the bare win, ×2: 4 / 2 / 2, +8; (b) a standard shape:
    三财神 双翻 ×4: 8 / 4 / 4, +16; (c) ``lazila``, all three as 5s: ×8: 16 / 8 / 8, +32."""
    opts = {"lianzhuang": "jinjie1"} | ({"lazila": True} if case == "c" else {})
    s = WenzhouScene(f"wz-ex04{case}", opts)
    held = {"a": "1m 4m 7m 2p 5p 8p 3s 6s 9s 2m 5m 8m 3p 6p", "b": "123m 456m 789m 12p 55p 9s",
            "c": "123m 456m 789m 123p 77s"}[case]
    s.hand(0, {1: f"{held} 5s 5s"}, indicator="5s", reserve="5s", avoid="3p 4p 6p 7s 8s 9s 1s 2s 3s 4s 6s")
    s.discard(0)
    s.draw(1, "5s")
    m = {"a": (["yinghu", "sancaishen_bare"], 1, 2), "b": (["ruanhu", "sancaishen"], 2, 4),
         "c": (["yinghu", "sancaishen", "sancai_guiwei"], 3, 8)}[case]
    s.win([(1, *m)], "self_draw", "5s")
    p = m[2]
    s.settle([(0, 1, 2 * p, "win"), (2, 1, p, "win"), (3, 1, p, "win")])
    return s.close()


def bare_sancaishen_turn(after_call: bool = False) -> GameBuilder:
    """§7.3 the bare 三财神 at one's own turn: seat 1 holds three 财神 (W = 5s) and no shape,
    draws 1p and wins bare, ×2: the dealer pays D_1 × 2 = 2, the others 2 (+6).  ``after_call``:
    its turn comes by ponging the dealer's 中 instead: a turn reached by a pong is no draw, so
    no bare win (WIN_INCOMPLETE; a self-draw with no draw is TURN_ORDER): paid nothing."""
    s = WenzhouScene("wz-bare-call" if after_call else "wz-bare-draw")
    s.hand(0, {1: "1m 4m 7m 2p 5p 8p 3s 6s 9s 2m 5m 7z 7z 5s 5s 5s", 0: "7z 7z"}, indicator="5s",
           avoid="1p 3p 4p 6p 7s 8s 9s 1s 2s 3s 4s 6s")
    if after_call:
        s.discard(0, "7z")
        s.pong(1, 0, "7z")
        tile = "7z"
    else:
        s.discard(0)
        s.draw(1, "1p")
        tile = "1p"
    s.win([(1, ["yinghu", "sancaishen_bare"], 1, 2)], "self_draw", tile)
    s.settle([(p, 1, 2, "win") for p in (0, 2, 3)])
    return s.close()


def ex05_jiehe(order: str = "kept", winner: int = 1) -> GameBuilder:
    """§12.5 截和 and the discard order: dealer seat 2 throws its single 北; seat 1 throws 西;
    seat 2, holding a single 西, throws it (``order = broken``: 5m instead, one
    HONOUR_DISCARD_ORDER); seat 0 throws 9p, seats 1 and 3 declare; seat 1 (the first from
    seat 0's 下家) wins hard ×2: 2 / 2 / 2, +6 (``winner = 3``: CLAIM_PRIORITY)."""
    s = WenzhouScene(f"wz-ex05{'b' if order != 'kept' else ''}{'c' if winner != 1 else ''}")
    s.hand(2, {1: "123m 456m 789m 234s 78p 99s", 3: "456m 123p 456p 78p 678s 55s", 2: "3z 4z 5m"},
           indicator="1z", reserve="3z 9p", avoid="9p 6p 5m")
    s.discard(2, "4z")
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1, "3z")
    s.discard(1, "3z")
    s.draw(2)
    s.discard(2, "3z" if order == "kept" else "5m")
    s.pass_turn(3)
    s.draw(0, "9p")
    s.discard(0, "9p")
    s.b.declare(1, "win")
    s.b.declare(3, "win")
    s.win([(winner, ["yinghu"], 1, 2)], "discard", "9p", from_seat=0, declare=False)
    s.settle([(p, winner, 2, "win") for p in range(4) if p != winner])
    return s.close()


def ex07_levels(after_fourth: str = "redraw") -> GameBuilder:
    """§12.7 levels across hands: seat 0 wins at level 1 (hand 1), hand 2 at level 2 is drawn,
    seat 0 wins at level 3 (hand 3), deals hand 4 at level 4 and wins; the dealership ends:
    hand 5 is dealt by seat 2 at level 1 (``redraw``: whoever the log names) — or by seat 1
    (``pass``).  Each dealer win ×2: each pays D_L × 2 (2, 6, 8)."""
    opts = {"after_fourth": "pass"} if after_fourth == "pass" else None
    s = WenzhouScene("wz-ex07" + ("b" if opts else "a"), opts)
    _dealer_self_draw(s, 0, 1, 2)
    _drawn_hand(s, 0, 2)
    _dealer_self_draw(s, 0, 3, 6)
    _dealer_self_draw(s, 0, 4, 8)
    _drawn_hand(s, 1 if opts else 2, 1)
    return s.close()


def ex08_dihe(scope: str = "dealer_first_discard") -> GameBuilder:
    """§12.8 地和: dealer seat 1 throws 3m first; seat 3 wins it soft (W = 9p standing for 4p or
    7p): 地和 ×4, each pays 4, +12.  Under ``first_round_shangjia`` (seat 1 is not seat 3's
    上家) the same win is ×1: 1 / 1 / 1."""
    opts = {"dihe_scope": scope} if scope != "dealer_first_discard" else None
    s = WenzhouScene("wz-ex08" + ("b" if opts else "a"), opts)
    s.hand(1, {3: "12m 456m 789m 234s 56p 99s 9p", 1: "3m"}, indicator="9p", avoid="3m 4p 7p 9s")
    s.discard(1, "3m")
    if opts:
        s.win([(3, ["ruanhu"], 0, 1)], "discard", "3m", from_seat=1)
        s.settle([(0, 3, 1, "win"), (1, 3, 1, "win"), (2, 3, 1, "win")])
    else:
        s.win([(3, ["ruanhu", "dihe"], 2, 4)], "discard", "3m", from_seat=1)
        s.settle([(0, 3, 4, "win"), (1, 3, 4, "win"), (2, 3, 4, "win")])
    return s.close()


def tianhe() -> GameBuilder:
    """天和 (§8.2): the dealer's 17 dealt tiles win (hard): 天和 ×4, each pays 4, +12."""
    s = WenzhouScene("wz-tianhe")
    s.hand(0, {0: "111m 234m 567p 789p 345s 88s"}, indicator="4z")
    s.win([(0, ["yinghu", "tianhe"], 2, 4)], "self_draw", "8s")
    s.settle([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")])
    return s.close()


def badui() -> GameBuilder:
    """硬八对 (§7.2): seat 1 self-draws the 17th tile to eight pairs and one: ×4, each pays 4
    (the dealer 4 = D_1 × 4), +12."""
    s = WenzhouScene("wz-badui")
    s.hand(0, {1: "11m 22m 33m 44p 55p 66s 77s 8m 9s"}, indicator="4z", reserve="8m", avoid="8m 9s")
    s.discard(0)
    s.draw(1, "8m")
    s.win([(1, ["yinghu", "badui"], 2, 4)], "self_draw", "8m")
    s.settle([(0, 1, 4, "win"), (2, 1, 4, "win"), (3, 1, 4, "win")])
    return s.close()


def ex06_side_options(payers: str = "all") -> GameBuilder:
    """§12.6 买底, 财神钱 and 杠算分 at once: hand 1 (seat 0 at level 1, bets 1, 0, 0, 1) is drawn;
    in hand 2 (level 2, D_2 = 2, W = 9p) seat 2 makes a concealed kong of 6m and seat 3 wins
    seat 1's 7p soft; seat 0 holds two 财神, seat 3 one.  Win 6 / 1 / 1; 财神钱 seat 0 +2 from
    each, seat 3 +1 from each; 杠算分 seat 2 +2 from each: −3, −6, +2, +7
    (``discarder_for_all``: seat 1 pays the win's 8: +3, −13, +3, +7)."""
    opts = {"maidi": True, "caishenqian": True, "kong_payments": "at_end"}
    if payers != "all":
        opts["discard_payers"] = payers
    s = WenzhouScene("wz-ex06" + ("b" if payers != "all" else "a"), opts)
    s.hand(0, {}, indicator="9p", bets=(1, 0, 0, 1))
    s.discard(0)
    s.until(1, 16)
    s.drawn()
    s.hand(0, {0: "9p 9p", 2: "6666m", 3: "123m 789m 123p 234s 6p 99s 9p"}, indicator="9p", level=2,
           reserve="7p", avoid="5p 8p 7p 9s 6m")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.kong_concealed(2, "6m")
    s.replacement(2)
    s.discard(2)
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1, "7p")
    s.discard(1, "7p")
    s.win([(3, ["ruanhu"], 0, 1)], "discard", "7p", from_seat=1)
    win = [(0, 3, 6, "win"), (1, 3, 1, "win"), (2, 3, 1, "win")] if payers == "all" else [(1, 3, 8, "win")]
    s.settle(win + [(1, 0, 2, "caishen"), (2, 0, 2, "caishen"), (3, 0, 2, "caishen"),
                    (0, 3, 1, "caishen"), (1, 3, 1, "caishen"), (2, 3, 1, "caishen"),
                    (0, 2, 2, "kong"), (1, 2, 2, "kong"), (3, 2, 2, "kong")])
    return s.close()


def _named(fn: Callable[[], GameBuilder], doc: str) -> Callable[[], GameBuilder]:
    """``fn`` with its own line in the sample README."""
    fn.__doc__ = doc
    return fn


#: the clean rooms with the text's money
EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex01_soft_discard": ex01_soft_discard,
    "ex02_dealer_level_2": ex02_dealer_level_2,
    "ex03_dandiao": ex03_dandiao,
    "ex03_caishen_dandiao_self_draw": _named(lambda: ex03_dandiao(caishen_last=True),
                                             "§12.3 财神单钓: seat 3's last tile is a 财神; it self-draws 7s: "
                                             "单吊 ×4 (软), each pays 4, +12."),
    "ex04a_bare_sancaishen": ex04_sancaishen,
    "ex04b_sancaishen": _named(lambda: ex04_sancaishen("b"), "§12.4 (b) 三财神 with a standard shape, "
                               "jinjie1: ×4, 8 / 4 / 4, +16."),
    "ex06_side_options": ex06_side_options,
    "ex05_jiehe": ex05_jiehe,
    "ex07_levels": ex07_levels,
    "ex08_dihe": ex08_dihe,
    "tianhe": tianhe,
    "badui": badui,
    "bare_sancaishen_drawn": bare_sancaishen_turn,
}

#: one room per option value that changes the money
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "ex01_discarder_for_all": _named(lambda: ex01_soft_discard("discarder_for_all"),
                                     "§12.1 with discard_payers = discarder_for_all: seat 1 pays 3."),
    "ex02_jinjie2": _named(lambda: ex02_dealer_level_2("jinjie2"),
                           "§12.2 with lianzhuang = jinjie2: D_2 = 4, each pays 8, +24."),
    "ex04c_lazila": _named(lambda: ex04_sancaishen("c"), "§12.4 (c) lazila, three 财神 归位 as 5s: ×8, "
                           "16 / 8 / 8, +32."),
    "ex06_discarder_for_all": _named(lambda: ex06_side_options("discarder_for_all"),
                                     "§12.6 with discarder_for_all: seat 1 pays the win's 8: +3, −13, +3, +7."),
    "ex07_after_fourth_pass": _named(lambda: ex07_levels("pass"), "§12.7 with after_fourth = pass: seat 1 "
                                     "deals hand 5 at level 1."),
    "ex08_first_round_shangjia": _named(lambda: ex08_dihe("first_round_shangjia"),
                                        "§12.8 with dihe_scope = first_round_shangjia: no 地和, 1 / 1 / 1."),
}


def _level_logged(b: GameBuilder, hand: int, level: int) -> GameBuilder:
    """Hand ``hand`` logged at another dealer level."""
    import msgspec
    from schema import events as ev
    b.events = [msgspec.structs.replace(e, dealer_level=level) if type(e) is ev.HandStarted and e.hand == hand
                else e for e in b.events]
    return b


def _rename(b: GameBuilder, game: str) -> GameBuilder:
    import msgspec
    b.events = [msgspec.structs.replace(e, game=game) for e in b.events]
    return b


#: near misses: (room, the finding it gives, or its findings in order)
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], Union[str, tuple[str, ...]]]] = {
    "nm_honour_order": (lambda: ex05_jiehe("broken"), "HONOUR_DISCARD_ORDER"),
    "nm_jiehe_later_winner": (lambda: ex05_jiehe(winner=3), "CLAIM_PRIORITY"),
    "nm_caishen_dandiao_discard": (lambda: ex03_dandiao(caishen_last=True, on_discard=True),
                                   "WIN_CAISHEN_DANDIAO_DISCARD"),
    # logged and paid at level 1: the level is wrong, and so is the money at the rotation's level 2
    "nm_level_not_raised": (lambda: ex02_dealer_level_2(logged=1), ("DEALER_ROTATION", "TRANSFER_MISMATCH")),
    "nm_fifth_level": (lambda: _rename(_level_logged(ex07_levels(), 5, 5), "wz-nm-l5"), "DEALER_ROTATION"),
    "nm_bare_sancaishen_after_call": (lambda: bare_sancaishen_turn(after_call=True), ("TURN_ORDER", "WIN_INCOMPLETE")),
    "nm_dihe_not_in_scope": (lambda: _rename(reopened(ex08_dihe(), dihe_scope="first_round_shangjia"),
                                             "wz-nm-dihe"), "FAN_MISMATCH"),
}

def near_miss_codes(name: str) -> list[str]:
    """The findings near miss ``name`` gives, in order."""
    code = NEAR_MISSES[name][1]
    return [code] if isinstance(code, str) else list(code)


__all__ = ["EXAMPLES", "NEAR_MISSES", "OPTION_ROOMS", "near_miss_codes"]

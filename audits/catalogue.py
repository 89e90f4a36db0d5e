"""The catalogue of finding codes: each stable code, its severity and the rule it enforces.

Codes are UPPER_SNAKE strings that never change meaning once published; reports,
stores and dashboards key on them.  Every code states its rule in one line (the
rule text the ``--explain`` and JUnit outputs quote) and a severity:

* ``error``   — the log shows play or money that the rules forbid;
* ``warning`` — something is off but may be a logging quirk rather than a rules breach;
* ``info``    — noted for the record.

The checks are judged *step by step*: each one compares one logged step with
what the rules make of the logged step before it, so a single server bug gives
a single finding rather than a cascade (a wrong fan total is a ``FAN_MISMATCH``;
points, transfers and scores that faithfully follow the wrong total are not
reported again).  The corrected ledger in :class:`audits.audit.GameAudit`
carries the consequences forward instead.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from schema.seal import KINDS as SEAL_KINDS

Severity = Literal["error", "warning", "info"]


class Code(msgspec.Struct, frozen=True):
    """One finding code: ``code`` (stable name), ``severity`` and the ``rule`` in one line."""

    code: str
    severity: Severity
    rule: str
    #: The group the check belongs to (stream, table, claims, wins, scoring, billing).
    group: str = ""


_ENTRIES: list[tuple[str, str, Severity, str]] = [
    # --- the stream: can the log be read and replayed at all ---------------------
    ("stream", "STREAM_SEQ_GAP", "error", "A game's events are numbered 0, 1, 2, … with no number skipped."),
    ("stream", "STREAM_SEQ_REPEAT", "error", "A game's sequence numbers never repeat or go back."),
    ("stream", "STREAM_UNREADABLE_LINE", "error", "Every log line is one JSON event that matches the schema."),
    ("stream", "GAME_TRUNCATED", "error", "Every game ends with GameClosed."),
    ("stream", "STRUCTURAL_BREAK", "error",
     "Every event can be applied to the table (right phase, known seats, tiles that exist)."),
    ("stream", "INTERNAL_ERROR", "error",
     "paipu itself failed while auditing this game: a bug in paipu, not a property of the log (exit 3)."),
    # --- the table: the wall, the tiles, whose turn -----------------------------
    ("table", "ROOM_SEATS_MISMATCH", "error", "The seats a log names match its players option (4, or 3)."),
    ("table", "TILE_OVERCOUNT", "error",
     "No tile appears in one hand's play more often than the set holds it (four of a kind, one of each flower; "
     "a turned indicator counts)."),
    ("table", "HAND_SIZE", "error",
     "The dealer is dealt hand_size + 1 tiles and the others hand_size (13, or 16); a player about to discard "
     "holds hand_size + 1 counting each set as 3."),
    ("table", "DRAW_NOT_WALL_ORDER", "error",
     "With a logged wall, the deal, every draw and every turned tail tile follow the wall order."),
    ("table", "TAIL_REFILL_WRONG", "error",
     "翻屁股: two tail tiles are face up after the deal, and one more is turned after each kong replacement."),
    ("table", "KONG_REPLACEMENT_NOT_FROM_TAIL", "error",
     "After a kong or a tile set aside the player takes its replacement from where the ruleset says "
     "(a face-up tail tile, 公开杠牌, or the wall's tail) before any other action."),
    ("table", "TAIL_DRAW_WITHOUT_KONG", "error",
     "A replacement tile (face-up tail tile or the wall's tail) is taken only after a kong or a tile set aside."),
    ("table", "EXHAUSTIVE_DRAW_MISSED", "error",
     "黄庄: no draw from the wall once the remaining tiles are down to the reserve (20 by default)."),
    ("table", "EXHAUSTIVE_DRAW_EARLY", "error", "黄庄 is declared only when the remaining tiles are down to the reserve."),
    ("table", "REMAINING_MISMATCH", "warning",
     "黄庄: the remaining tiles a HandDrawn reports are the table's undrawn tiles, counted as the ruleset "
     "counts them against the reserve."),
    ("table", "DEALER_ROTATION", "error",
     "The first dealer and each next dealer are the ruleset's (Qujing: the creator, then the winner, the dealer "
     "after 黄庄, the discarder after 一炮多响); a logged dealer level (连庄) is the dealer's streak + 1."),
    ("table", "TURN_ORDER", "error",
     "Play moves to 下家 (seat+1): the player whose turn it is draws and discards; a self-draw win is the drawer's."),
    # --- claims: 吃 碰 杠 on discards and kongs from the hand --------------------
    ("claims", "CLAIM_CHOW_DISABLED", "error", "吃 chow is allowed only when the room enabled it."),
    ("claims", "CLAIM_CHOW_WRONG_SEAT", "error", "吃 chow only from 上家 (the seat before)."),
    ("claims", "CLAIM_OWN_DISCARD", "error", "A player never claims their own discard."),
    ("claims", "CLAIM_TILES_NOT_IN_HAND", "error", "A claim or kong uses only tiles the player holds."),
    ("claims", "CLAIM_MELD_INVALID", "error",
     "A chow is three consecutive tiles of one suit, a pong three equal tiles, a kong four of its kind."),
    ("claims", "CLAIM_WILD_IN_PONG", "error", "A chicken never acts as wild in a 碰 pong (only as a plain 1s)."),
    ("claims", "CLAIM_WILD_IN_CHOW", "error", "A chicken never acts as wild in a 吃 chow (only as a plain 1s)."),
    ("claims", "KONG_ILLEGAL_CHICKENS", "error",
     "Chickens in kongs: 直杠 3 natural or a natural pair + 1 chicken; 补杠 any; 暗杠 at least 1 natural."),
    ("claims", "CLAIM_PRIORITY", "error",
     "Priority 胡 > 杠 > 碰 > 吃: a lower claim never beats a higher one declared; with one winner only "
     "(multi_win off, 截和) the first legal declarer from the discarder's 下家 wins."),
    ("claims", "GUOSHOU_PENG", "error",
     "过手碰: a player who could pong a tile and did not may not pong it before their own next draw or claim."),
    ("claims", "GUOSHOU_GANG", "error",
     "过手杠: a player who could kong a discard and did not may not kong it before their own next draw or claim."),
    # --- wins --------------------------------------------------------------------
    ("wins", "WIN_INCOMPLETE", "error", "A winning hand is 4 sets + a pair or a special hand, chickens as wild."),
    ("wins", "WIN_ZERO_FAN_DISCARD", "error",
     "点炮 a discard win needs at least 1 fan (底和 and 单吊小鸡 without fan win by self-draw only)."),
    ("wins", "WIN_DURING_GUOHU", "error",
     "过胡: a player who let a legal win go may win on no discard and rob no kong before their own next draw or claim."),
    ("wins", "ROB_CONCEALED_KONG", "error", "抢杠: only an added kong (补杠) can be robbed."),
    ("wins", "ROB_LATE", "error",
     "抢杠: an added kong is robbed right after it is added, before the adder takes the replacement."),
    ("wins", "WIN_MISSED_MULTI", "error",
     "一炮多响: every player who declared a legal win on the discard is a winner."),
    # --- scoring -----------------------------------------------------------------
    ("scoring", "FAN_MISMATCH", "error",
     "A winner's fans and fan total are those of the hand's highest-scoring reading."),
    ("scoring", "POINTS_MISMATCH", "error",
     "Each payer's points follow the ruleset's formula from the winner's fans "
     "(Qujing: P = base × 2^fan, the fan capped at 满牌, 3 by default)."),
    ("scoring", "TRANSFER_MISMATCH", "error",
     "A win's payments are the ones the ruleset's settlement derives: who pays whom, and how much "
     "(Qujing: 自摸 each other player pays P, 点炮 only the discarder pays P)."),
    ("scoring", "QIANGGANG_PAYER", "error",
     "抢杠 包三家: where the ruleset makes the kong adder liable, it alone pays every paying seat's share to the robber."),
    ("scoring", "MULTI_WIN_ORDER", "error",
     "一炮多响: the discarder pays the winners in seat order from the discarder's next seat."),
    ("scoring", "YANGZHU_MISMATCH", "error",
     "Side bets (养猪, 买底): every payment between a pair grows by the bets the ruleset adds (Qujing: the winner's "
     "bet plus that loser's)."),
    ("scoring", "YANGZHU_BET_INVALID", "error",
     "A side bet (养猪, 买底) has a value, moment, count and room the ruleset allows "
     "(Qujing: 0, 1 or 2, once per hand, before the deal, only in a room playing 养猪)."),
    ("scoring", "QIAOLUO_START_POINTS", "error", "20分敲锣: every player starts the game with 20 points."),
    ("scoring", "DIANJI_MISMATCH", "error",
     "点鸡: every chicken a player answers for collects the base from each other player, netted pairwise."),
    ("scoring", "SCORE_CONTINUITY", "error",
     "The scores after a hand are the scores before it plus that hand's transfers."),
    ("scoring", "SCORE_MISMATCH", "error", "The scores GameClosed reports are the scores after the last hand."),
    ("scoring", "SCORE_BELOW_ZERO", "error", "20分敲锣: nobody goes below 0; a payer pays at most what they hold."),
    ("scoring", "GAME_NOT_ENDED_AT_ZERO", "error", "20分敲锣: the game ends as soon as a player reaches 0."),
    # --- billing (钻石 diamonds) ----------------------------------------------------
    ("billing", "FEE_NOT_CHARGED", "error", "The room's fee is charged when the first hand is settled."),
    ("billing", "FEE_CHARGED_EARLY", "error", "The room's fee is never charged before the first hand is settled."),
    ("billing", "FEE_CHARGED_TWICE", "error", "The room's fee is charged once per game (once per seat in AA)."),
    ("billing", "FEE_ON_DISSOLVED", "error", "A room dissolved before any hand is settled is not charged."),
    ("billing", "FEE_AMOUNT", "warning",
     "The creator pays the whole fee (creator billing) or each seat pays once (AA), totalling the room's fee."),
    ("billing", "REFUND_MISSING", "error",
     "A 4-seat room turned 3-seat refunds the creator the difference (creator billing)."),
    ("billing", "REFUND_UNEXPECTED", "warning", "Refunds go only to the creator of a resized room under creator billing."),
]

# --- Sichuan 四川麻将 and 血战到底 (sichuan.md §14) ------------------------------------------
_ENTRIES += [
    ("table", "TILE_NOT_IN_SET", "error",
     "Only the tiles of the ruleset's set are played (108 suited tiles, 136 with honours, 144 with flowers)."),
    ("table", "KONG_WITHOUT_REPLACEMENT", "error", "A kong is declared only while a wall tile is left to replace it."),
    ("table", "EVENT_NOT_IN_RULESET", "error",
     "A room logs only the events its ruleset has: no 定缺 or 换三张, turned indicator, tile set aside, opening win, "
     "开杠 reveal, 海底 offer or birds where its rules have none."),
    ("table", "HAND_END_WRONG", "error",
     "A hand ends at the first winning moment (first_win) or at the third winner (血战), else only when the wall is empty."),
    ("table", "VOID_NOT_DECLARED", "error",
     "定缺: every seat declares one suit void, once, before the dealer's first action."),
    ("table", "EXCHANGE_INVALID", "error",
     "换三张 (only where on): each seat gives three held tiles of one suit, once, before 定缺."),
    ("claims", "VOID_DISCARD_ORDER", "error", "定缺: while a seat holds tiles of its void suit it discards only those."),
    ("claims", "CLAIM_VOID_SUIT", "error",
     "定缺: no pong or kong of one's void suit (nor any while void tiles are held, where claims_while_void is off)."),
    ("claims", "CLAIM_ON_LAST_DISCARD", "error", "Only 胡 may claim the final discard (last_discard_claims = win_only)."),
    ("claims", "ACTION_AFTER_WIN", "error",
     "血战到底: a seat that has won leaves; it never draws, discards, claims, konges or wins again."),
    ("wins", "WIN_NOT_VOID", "error", "缺门: a winning hand holds no tile of the winner's void suit (at most two suits)."),
    ("wins", "WIN_DURING_GUOSHUI", "error",
     "过水: after passing a win, a discard win or robbing before one's own next action must be worth more (higher_fan)."),
    ("wins", "LAST_FOUR_WIN_NOT_TAKEN", "error", "最后四张自动和: over the last four wall tiles every legal win is taken."),
    ("scoring", "KONG_PAYMENT_MISMATCH", "error",
     "Kong payments are the ruleset's, when it pays them (Sichuan 刮风下雨: 直杠 2B from the discarder, 补杠 1B and "
     "暗杠 2B from each seat still in, as each kong stands; Guangdong kong_payments = on_win: 3B from the feeder, "
     "1B / 2B from each other seat, on a win only)."),
    ("scoring", "ZHUANYI_MISMATCH", "error",
     "呼叫转移: a 杠上炮 discarder moves its last kong's income to the first winner (by option: all kongs, every winner)."),
    ("scoring", "END_CHECK_MISMATCH", "error",
     "流局查卫生: at an exhaustive end 查花猪, 查大叫 and 退税 among the seats still in, and only then."),
]

# --- Guangdong 鸡平和 (guangdong.md §12): the rules no earlier code states ---------------
_ENTRIES += [
    ("table", "ROUND_WIND_MISMATCH", "error",
     "A logged round wind (圈风) or seat wind (门风) is the one the dealer sequence gives (Guangdong §3)."),
    ("wins", "WIN_BELOW_MIN_FAN", "error",
     "起和番: a win needs at least the ruleset's minimum (min_fan, or the family's own gate; self-draws as it says)."),
    ("wins", "WIN_DURING_LOUHE", "error",
     "漏和: a player who let a legal win on a tile go may not win on that tile (any discard by option) "
     "before their own next draw, chow, pong or kong (Guangdong)."),
    ("wins", "ROB_EXPOSED_KONG", "error",
     "抢杠: a kong made on a discard is not robbable; a win on that discard is an ordinary 点炮 (Guangdong)."),
    ("scoring", "FAN_NAMES_DIFFER", "warning",
     "The fan total and points are right but the fan names omit one that holds (Guangdong)."),
    ("scoring", "BAO_PAYER", "error",
     "包: a win with a liability is paid wholly by the liable seat, in the ruleset's order of liabilities "
     "(Guangdong: 3·P, 杠上开花包杠 > 大四喜/大三元 > 12张落地, 包先不包后)."),
    ("scoring", "BAO_UNDUE", "error", "包: no bao_* transfer where no liability exists (Guangdong)."),
    ("scoring", "KONG_PAYMENT_UNDUE", "error",
     "Kongs pay nothing unless kong_payments = on_win, and then only when the hand is won (Guangdong); "
     "no kong payment by a seat that has won and left, for a robbed kong, or by a seat no rule charges "
     "(Sichuan)."),
]

# --- the new families' shared codes (shared/design/new-families.md §2) --------------------
_ENTRIES += [
    ("table", "WILD_INDICATOR_MISSING", "error",
     "A hand with a turned wild has one indicator, from indicator_from, after the deal and before the dealer's "
     "first action."),
    ("table", "WILD_KIND_MISMATCH", "error",
     "The logged wild is the ruleset's wild of the turned indicator (wild_from: the same kind or the next)."),
    ("claims", "SPECIAL_TILE_DISCARDED", "error",
     "A tile the ruleset forbids to discard (a wild under wild_discard = forbidden, a 痞 tile) is not discarded."),
    ("claims", "CLAIM_SPECIAL_TILE", "error",
     "A tile the ruleset never melds (a wild kind, even as itself; a 痞 tile) is in no chow, pong or kong."),
    ("claims", "CLAIM_ON_DEAD_DISCARD", "error", "Nobody claims or wins on a dead discard (wild_discard = dead)."),
    ("table", "SET_ASIDE_INVALID", "error",
     "Only a tile the ruleset sets aside (a flower; a 痞 or wild tile) is set aside: held, on one's own turn "
     "or in the opening 补花."),
    ("table", "SEA_BOTTOM_ORDER", "error",
     "海底: the end-of-wall turns follow the ruleset: draws in turn, no forbidden discard, claim or kong, "
     "offers in order, one taker."),
    ("wins", "WIN_PAIR_NOT_258", "error", "A win the ruleset makes need a 2-5-8 pair (将) has one."),
]

# --- Changsha 长沙麻将 (changsha.md §14) --------------------------------------------------------
_ENTRIES += [
    ("wins", "QISHOU_INVALID", "error",
     "An opening win (起手胡) is declared before the dealer's first action, held by the dealt tiles, proved by "
     "the shown tiles, once, and enabled by the ruleset."),
    ("scoring", "QISHOU_PAYMENT_MISMATCH", "error",
     "A pair's total is right but for the opening-win base (起手胡)."),
    ("claims", "KAIGANG_NOT_READY", "error", "开杠 (a kong that reveals tiles) only by a seat ready after the kong."),
    ("table", "KAIGANG_REVEAL_WRONG", "error",
     "The tiles revealed after 开杠: the ruleset's count, from where it says, undrawn, and only after a 开杠 kong."),
    ("claims", "KAIGANG_HAND_LOCKED", "error",
     "After 开杠 the konger's hand is locked: it discards the tile it drew and never chows or pongs."),
    ("claims", "CLAIM_ON_KONG_REVEAL", "error", "Only 胡 on a tile revealed after 开杠 (kaigang_claims = win_only)."),
    ("table", "BIRD_TILES_WRONG", "error",
     "Birds (扎鸟): the ruleset's count, from where it says, counted from the right seat, only after a win."),
    ("scoring", "BIRD_MISMATCH", "error", "A pair's total is right but for the bird factor (扎鸟)."),
]

# --- Wenzhou 温州麻将 (wenzhou.md §13; new-families.md §2, family-only) -----------------------
_ENTRIES += [
    ("claims", "HONOUR_DISCARD_ORDER", "error",
     "出牌顺序 (honour_first): a seat holding a single honour (白板 read as the wild's kind) discards a single "
     "honour, and one holding a single of the honour just discarded discards it."),
    ("wins", "WIN_CAISHEN_DANDIAO_DISCARD", "error",
     "财神单钓: a seat waiting with a 财神 alone (the rest complete sets) wins by self-draw only "
     "(caishen_dandiao = self_draw_only)."),
    ("scoring", "CAISHEN_MONEY_MISMATCH", "error",
     "财神钱 (caishenqian): each seat collects n × B from each other seat for the n 财神 it holds at the end "
     "of the hand, 6 × B for a winner holding all three."),
]

# --- Hainan 海南麻将 (hainan.md §13; new-families.md §2, family-only) -----------------------
_ENTRIES += [
    ("table", "FLOWER_NOT_SET_ASIDE", "error",
     "A flower is never discarded, claimed, melded or in a win: its owner sets it aside (补花) before its next "
     "action, dealt flowers before the dealer's first action (Hainan)."),
    ("table", "OPENING_BUHUA_ORDER", "error",
     "The opening 补花 goes in turn from the dealer: every flower of a seat, a replacement flower too, before the "
     "next seat begins, or one flower per seat per round by opening_buhua (Hainan)."),
    ("scoring", "GENPAI_MISMATCH", "error",
     "跟牌: the dealer pays each other seat one unit when the first four discards are the same kind in seat order "
     "with no claim between (on won hands, or also at 黄庄 by genpai); not otherwise (Hainan)."),
    ("scoring", "FLOWER_PAYMENT_MISMATCH", "error",
     "Flower money only with flower_money = sets: a complete 春夏秋冬 or 梅兰菊竹 collects its value from each "
     "other seat on a won hand (Hainan)."),
]

#: The shared codes catalogued before any family emits them (the walker's and the new families'
#: steps, new-families.md §4: 5, 6 and the families); a family that emits one removes it here
#: (tests/audits/test_audit_codes.py keeps the two apart).
AWAITING_FAMILY: frozenset[str] = frozenset()

# --- Wuhan 红中赖子杠 (wuhan.md §13; new-families.md §2's family-only codes) ------------------
_ENTRIES += [
    ("wins", "WIN_NOT_OPENED", "error", "Wuhan 开口: a win needs a call made first (a chow, pong or exposed kong)."),
    ("wins", "WIN_HOLDING_PI", "error", "Wuhan: a seat holding a 痞 tile (红中) cannot win or rob a kong."),
    ("wins", "WIN_LAIZI_LIMIT", "error",
     "Wuhan: a 屁胡 holds at most one 癞子; a 大胡 any number, or at most dahu_max_laizi."),
]

# --- tamper evidence (docs/seal.md): the scheme's own kinds, stated once in schema.seal -------
_ENTRIES += [("stream", code, "error", rule) for code, rule in SEAL_KINDS.values()]

#: Every finding code by name.
CATALOGUE: dict[str, Code] = {
    name: Code(name, severity, rule, group) for group, name, severity, rule in _ENTRIES
}

#: The groups in display order.
GROUPS: tuple[str, ...] = ("stream", "table", "claims", "wins", "scoring", "billing")


def code(name: str) -> Code:
    """The catalogue entry of ``name`` (``KeyError`` for an unknown code)."""
    return CATALOGUE[name]


def markdown_table() -> str:
    """The catalogue as a Markdown table (``docs/findings.md`` is generated from it)."""
    out = ["| code | severity | group | rule |", "|---|---|---|---|"]
    for c in CATALOGUE.values():
        out.append(f"| `{c.code}` | {c.severity} | {c.group} | {c.rule} |")
    return "\n".join(out)


def findings_doc() -> str:
    """The text of ``docs/findings.md``: the catalogue with its conventions."""
    return (
        "# Finding codes\n\n"
        "Generated from `audits/catalogue.py` by `python -m audits.catalogue > docs/findings.md`; "
        "a test keeps the two in step.\n\n"
        "Each check compares one logged step with what the rules make of the logged step before it "
        "(fans against the hand, points against the logged fan, transfers against the logged points, "
        "scores against the logged transfers), so one server bug gives one finding. The corrected "
        "ledger of each game (`GameAudit.ledger`) recomputes every settlement from the tiles and "
        "carries the corrections forward.\n\n"
        "Severity: `error` — play or money the rules forbid (exit code 1); `warning` — off, but may be "
        "a logging quirk; `info` — for the record.\n\n"
        + markdown_table() + "\n"
    )


if __name__ == "__main__":  # pragma: no cover
    import sys
    sys.stdout.write(findings_doc())

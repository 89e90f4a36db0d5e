"""Names a player reads in the dispute report: each finding code's Chinese rule name with
an English one, the fans in English, the winds and how a hand was won."""

from __future__ import annotations

#: Finding code → (Chinese rule name, English name).  A test keeps it complete
#: against :data:`audits.catalogue.CATALOGUE`.
RULE_NAMES: dict[str, tuple[str, str]] = {
    "STREAM_SEQ_GAP": ("记录跳号", "events missing from the log"),
    "STREAM_SEQ_REPEAT": ("记录重复", "an event repeated in the log"),
    "STREAM_UNREADABLE_LINE": ("记录无法读取", "an unreadable log line"),
    "GAME_TRUNCATED": ("牌局未结束", "the log ends before the game does"),
    "STRUCTURAL_BREAK": ("记录断裂", "an event that cannot happen at this point"),
    "INTERNAL_ERROR": ("paipu 内部错误", "paipu failed on this game"),
    "SEAL_CHAIN_BROKEN": ("记录链被改", "the hash chain is broken (an event was changed)"),
    "SEAL_CHAIN_MISSING": ("记录链缺失", "an event of a sealed game carries no chain"),
    "SEAL_MISMATCH": ("封签不符", "the closing seal does not match"),
    "SEAL_MISSING": ("封签缺失", "a sealed game has no closing seal"),
    "WALL_COMMIT_MISMATCH": ("牌墙承诺不符", "the revealed wall does not match its commitment"),
    "WALL_REVEAL_MISSING": ("牌墙未公开", "a committed wall was never revealed"),
    "ROOM_SEATS_MISMATCH": ("座位数不符", "seats do not match the room"),
    "TILE_OVERCOUNT": ("牌数超限", "more than four of one tile"),
    "HAND_SIZE": ("相公 / 手牌张数不对", "wrong number of tiles in hand"),
    "DRAW_NOT_WALL_ORDER": ("不按牌墙顺序摸牌", "tiles not drawn in wall order"),
    "TAIL_REFILL_WRONG": ("翻屁股未补", "face-up tail not refilled"),
    "KONG_REPLACEMENT_NOT_FROM_TAIL": ("杠后未摸翻屁股", "kong replacement not from the face-up tail"),
    "TAIL_DRAW_WITHOUT_KONG": ("无杠摸翻屁股", "a tail tile taken without a kong"),
    "EXHAUSTIVE_DRAW_MISSED": ("应黄庄未黄庄", "exhaustive draw missed"),
    "EXHAUSTIVE_DRAW_EARLY": ("提前黄庄", "exhaustive draw declared early"),
    "REMAINING_MISMATCH": ("剩余牌数不符", "remaining tiles misreported"),
    "DEALER_ROTATION": ("坐庄错误", "wrong dealer"),
    "TURN_ORDER": ("出牌顺序错误", "out of turn"),
    "CLAIM_CHOW_DISABLED": ("未开吃却吃牌", "chow in a room without chow"),
    "CLAIM_CHOW_WRONG_SEAT": ("吃非上家", "chow not from the seat before"),
    "CLAIM_OWN_DISCARD": ("碰吃自己的牌", "claim of one's own discard"),
    "CLAIM_TILES_NOT_IN_HAND": ("用了手里没有的牌", "claim with tiles not held"),
    "CLAIM_MELD_INVALID": ("无效的吃碰杠", "invalid meld"),
    "CLAIM_WILD_IN_PONG": ("碰牌用鸡", "chicken used as wild in a pong"),
    "CLAIM_WILD_IN_CHOW": ("吃牌用鸡", "chicken used as wild in a chow"),
    "KONG_ILLEGAL_CHICKENS": ("杠牌用鸡不合规", "illegal chickens in a kong"),
    "CLAIM_PRIORITY": ("胡杠碰吃优先级", "claim priority"),
    "GUOSHOU_PENG": ("过手碰", "pong of a tile passed"),
    "GUOSHOU_GANG": ("过手杠", "kong of a tile passed"),
    "WIN_INCOMPLETE": ("诈胡", "win with an incomplete hand"),
    "WIN_ZERO_FAN_DISCARD": ("无番点炮", "discard win without a fan"),
    "WIN_DURING_GUOHU": ("过胡", "win after passing a win"),
    "ROB_CONCEALED_KONG": ("抢暗杠", "robbing a concealed kong"),
    "ROB_LATE": ("抢杠过时", "robbing a kong too late"),
    "WIN_MISSED_MULTI": ("一炮多响漏胡", "a winner of several skipped"),
    "FAN_MISMATCH": ("番数算错", "wrong fan count"),
    "POINTS_MISMATCH": ("满牌 / 分数算错", "wrong points (fan cap)"),
    "TRANSFER_MISMATCH": ("付分错误", "wrong payment"),
    "QIANGGANG_PAYER": ("抢杠包三家", "robbed kong: the adder pays for all"),
    "MULTI_WIN_ORDER": ("一炮多响付分顺序", "several winners paid out of order"),
    "YANGZHU_MISMATCH": ("养猪算错", "wrong pig-bet payment"),
    "YANGZHU_BET_INVALID": ("养猪下注无效", "invalid pig bet"),
    "QIAOLUO_START_POINTS": ("敲锣起始分", "wrong start points"),
    "DIANJI_MISMATCH": ("点鸡算错", "wrong chicken points"),
    "SCORE_CONTINUITY": ("分数不连续", "scores do not follow the payments"),
    "SCORE_MISMATCH": ("终局分数不符", "final scores differ"),
    "SCORE_BELOW_ZERO": ("敲锣负分", "a score below zero"),
    "GAME_NOT_ENDED_AT_ZERO": ("敲锣未结束", "game not ended at zero"),
    "FEE_NOT_CHARGED": ("未扣钻石", "room fee not charged"),
    "FEE_CHARGED_EARLY": ("提前扣钻石", "room fee charged early"),
    "FEE_CHARGED_TWICE": ("重复扣钻石", "room fee charged twice"),
    "FEE_ON_DISSOLVED": ("解散房间扣钻石", "fee for a dissolved room"),
    "FEE_AMOUNT": ("钻石数额错误", "wrong fee amount"),
    "REFUND_MISSING": ("未退钻石", "refund missing"),
    "REFUND_UNEXPECTED": ("多退钻石", "unexpected refund"),
    "EVENT_NOT_IN_RULESET": ("本玩法无此事件", "an event this room's rules do not have"),
}

#: Fan id → English name (the Chinese names come from the rule family).
# Guangdong 鸡平和 (guangdong.md §12)
RULE_NAMES.update({
    "KONG_WITHOUT_REPLACEMENT": ("无牌可补之杠", "a kong with no tile left to replace it"),
    "ROUND_WIND_MISMATCH": ("风圈门风不符", "wrong round or seat wind"),
    "CLAIM_ON_LAST_DISCARD": ("海底牌被吃碰杠", "a claim on the last discard"),
    "WIN_BELOW_MIN_FAN": ("不够起和番", "a win below the minimum fan"),
    "WIN_DURING_LOUHE": ("漏和", "win on a tile passed (漏和)"),
    "ROB_EXPOSED_KONG": ("抢直杠", "robbing a kong made on a discard"),
    "FAN_NAMES_DIFFER": ("番种名不符", "fan names differ"),
    "BAO_PAYER": ("包牌付款人错", "wrong liable payer (包)"),
    "BAO_UNDUE": ("不应包牌", "a liability where none is due"),
    "KONG_PAYMENT_UNDUE": ("不应杠钱", "kong payment not due"),
    "KONG_PAYMENT_MISMATCH": ("杠钱算错", "wrong kong payment"),
})

FAN_ENGLISH: dict[str, str] = {
    "dihu": "plain win", "wuji": "no chicken", "menqing_zimo": "concealed self-draw",
    "gangshang_kaihua": "win on a kong replacement", "gangshang_pao": "win on a discard after a kong",
    "shuanggang": "two kongs", "hunyise": "half flush", "duidui": "all pongs", "quanqiuren": "all melded",
    "xiaosanyuan": "little three dragons", "wumeihua": "five plum blossoms", "qingyise": "full flush",
    "ziyise": "all honours", "xiaoqidui": "seven pairs", "dasanyuan": "big three dragons",
    "xiaosixi": "little four winds", "longzhuabei": "dragon claw", "sigang": "four kongs",
    "dasixi": "big four winds", "sixiaoji": "four chickens",
    # Guangdong 鸡平和
    "jihu": "chicken hand", "pinghu": "all chows", "zimo": "self-draw", "menfeng": "seat wind pong",
    "quanfeng": "round wind pong", "sanyuan": "dragon pong", "hunpeng": "half flush all pongs",
    "qingpeng": "full flush all pongs", "hunyaojiu": "terminals and honours", "qingyaojiu": "all terminals",
    "jiulian": "nine gates", "shisanyao": "thirteen orphans", "qidui": "seven pairs",
    "haidi": "win on the last tile", "qianggang": "robbing a kong", "yipao_sanxiang": "three winners on one discard",
    "tianhe": "heavenly hand", "dihe": "earthly hand", "renhe": "human hand",
    # the new families' shared names (new-families.md §3)
    "jiangyise": "all 2-5-8", "shisanlan": "thirteen unconnected", "yinghu": "win without wilds",
    "ruanhu": "win with wilds",
    # Xuzhou 徐州麻将
    "paopei": "completed with the wild running",
    # Changsha 长沙麻将: 豪华 and the opening wins (起手胡)
    "haohua": "luxury (a quad in seven pairs)", "haidi_pao": "win on the last tile's discard",
    "qs_sixi": "opening: four of a kind", "qs_banban": "opening: no 2, 5 or 8",
    "qs_queyise": "opening: a suit missing", "qs_liuliushun": "opening: two triplets",
    "qs_bubugao": "opening: three stepped pairs", "qs_jintongyunv": "opening: pairs of 2p and 2s",
    "qs_yizhihua": "opening: a lone 5 in a suit", "qs_santong": "opening: one pair in each suit",
    # Wenzhou 温州麻将
    "badui": "eight pairs without wilds", "sancaishen": "three wilds in a winning shape",
    "sancaishen_bare": "three wilds held (no shape needed)", "sancai_guiwei": "three wilds as themselves",
    "zhongfabai": "red, green and white", "caishen_niudui": "a pair of wilds",
    "shuangcai_guiwei": "two wilds as themselves",
}

#: Seat winds, by distance from the dealer.
WINDS = ("东 East", "南 South", "西 West", "北 North")

# Sichuan 四川麻将 / 血战到底 (sichuan.md §14)
RULE_NAMES.update({
    "TILE_NOT_IN_SET": ("牌不在牌组内", "a tile outside the ruleset's set"),
    "KONG_WITHOUT_REPLACEMENT": ("无牌可补的杠", "a kong with no wall tile left to replace it"),
    "HAND_END_WRONG": ("牌局结束错误", "a hand that ends at the wrong moment"),
    "VOID_NOT_DECLARED": ("定缺错误", "a missing, repeated or late void declaration"),
    "EXCHANGE_INVALID": ("换三张错误", "an invalid three-tile exchange"),
    "VOID_DISCARD_ORDER": ("未先打缺门", "a discard while void-suit tiles are held"),
    "CLAIM_VOID_SUIT": ("碰杠缺门", "a pong or kong of the void suit"),
    "CLAIM_ON_LAST_DISCARD": ("海底牌碰杠", "a pong or kong of the final discard"),
    "ACTION_AFTER_WIN": ("胡后行动", "play by a seat that has won and left"),
    "WIN_NOT_VOID": ("未缺门胡牌", "a win holding the void suit"),
    "WIN_DURING_GUOSHUI": ("过水胡", "a win barred by 过水"),
    "LAST_FOUR_WIN_NOT_TAKEN": ("最后四张未胡", "a legal win passed over the last four tiles"),
    "KONG_PAYMENT_MISMATCH": ("刮风下雨错误", "wrong kong payments"),
    "ZHUANYI_MISMATCH": ("呼叫转移错误", "wrong 呼叫转移 transfer"),
    "END_CHECK_MISMATCH": ("查花猪查大叫错误", "wrong 查花猪 / 查大叫 / 退税"),
})

# the new families' shared codes (shared/design/new-families.md §2)
RULE_NAMES.update({
    "WILD_INDICATOR_MISSING": ("未翻牌定赖", "no wild indicator turned, or more than one"),
    "WILD_KIND_MISMATCH": ("赖子牌不对", "a wild kind that does not follow from the indicator"),
    "SPECIAL_TILE_DISCARDED": ("打出不可打的牌", "a wild or 痞 tile discarded where it may not be"),
    "CLAIM_SPECIAL_TILE": ("赖子/痞子入副露", "a wild or 痞 tile in a chow, pong or kong"),
    "CLAIM_ON_DEAD_DISCARD": ("吃碰胡死牌", "a claim or win on a dead discard"),
    "SET_ASIDE_INVALID": ("补花/单张杠错误", "a tile set aside that may not be"),
    "SEA_BOTTOM_ORDER": ("海底顺序错误", "the end-of-wall turns out of order"),
    "WIN_PAIR_NOT_258": ("将不是二五八", "a win without the 2-5-8 pair it needs"),
    "WIN_NOT_OPENED": ("未开口胡牌", "a win before any call (开口)"),
    "WIN_HOLDING_PI": ("持红中胡牌", "a win while holding a 痞 tile (红中)"),
    "WIN_LAIZI_LIMIT": ("癞子过多", "a 屁胡 holding two or more 癞子"),
})

# Changsha 长沙麻将 (changsha.md §14)
RULE_NAMES.update({
    "QISHOU_INVALID": ("起手胡无效", "an opening win late, not held, not shown, repeated or not played"),
    "QISHOU_PAYMENT_MISMATCH": ("起手胡分错误", "a pair's money off by its opening-win base"),
    "KAIGANG_NOT_READY": ("未听牌开杠", "开杠 by a seat not ready after the kong"),
    "KAIGANG_REVEAL_WRONG": ("开杠翻牌错误", "the tiles turned after 开杠: count, place or moment"),
    "KAIGANG_HAND_LOCKED": ("开杠后换牌", "a hand locked by its 开杠 kept a drawn tile or claimed"),
    "CLAIM_ON_KONG_REVEAL": ("碰吃开杠牌", "a chow, pong or kong of a tile turned by 开杠"),
    "BIRD_TILES_WRONG": ("扎鸟错误", "the birds: count, place, the seat counted from, or none after a win"),
    "BIRD_MISMATCH": ("中鸟分错误", "a pair's money off by its bird factor"),
})
# Hainan 海南麻将 (hainan.md §13)
RULE_NAMES.update({
    "FLOWER_NOT_SET_ASIDE": ("花牌未补花", "a flower kept, played or won with instead of set aside"),
    "GENPAI_MISMATCH": ("跟牌错误", "跟牌 paid wrongly (the dealer's first discard followed by all)"),
    "FLOWER_PAYMENT_MISMATCH": ("花钱错误", "flower money paid wrongly"),
    "OPENING_BUHUA_ORDER": ("起手补花顺序错误", "the opening flower replacements out of seat order"),
})
FAN_ENGLISH.update({"jiang258": "2-5-8 pair", "zhenghua": "own seat flower", "huashang_kaihua": "win on a flower's "
                    "replacement", "gang": "kong", "menqing": "concealed hand", "longqidui": "seven pairs with four"})

#: How a hand was won.
HOW = {"self_draw": "自摸 self-draw", "discard": "点炮 on a discard", "robbed_kong": "抢杠 robbing a kong"}

#: Transfer reasons.
REASONS = {"win": "win", "qianggang": "抢杠 包三家", "yangzhu": "养猪 pig bet", "dianji": "点鸡 chickens",
           "kong": "刮风下雨 kong", "zhuanyi": "呼叫转移", "huazhu": "查花猪", "dajiao": "查大叫", "tuishui": "退税",
           "bao_gangkai": "杠上开花包杠", "bao_special": "大四喜/大三元 包自摸", "bao_luodi": "12张落地 包自摸",
           # the new families' reasons (new-families.md §1)
           "qishou": "起手胡 opening win", "bird": "抓鸟 birds", "dealer": "庄家 dealer's part",
           "caishen": "财神钱", "flower": "花钱 flower money", "genpai": "跟牌",
           "bao_sandao": "包三道", "bao_gang": "包杠", "bao_haidi": "包海底", "bao_sanpu": "包三铺",
           "bao_quanqiuren": "包全求人"}

#: Claims.
CLAIMS = {"win": "胡 win", "kong": "杠 kong", "pong": "碰 pong", "chow": "吃 chow"}

#: Why a game closed.
CLOSE_REASONS = {"hands_done": "all hands played", "knocked_out": "a player reached 0 (敲锣)",
                 "dissolved": "the room was dissolved"}


def rule_name(code: str) -> tuple[str, str]:
    """(Chinese, English) name of a finding code; the code itself when unnamed."""
    return RULE_NAMES.get(code, (code, code.replace("_", " ").lower()))

# Wenzhou 温州麻将 (wenzhou.md §13)
RULE_NAMES.update({
    "HONOUR_DISCARD_ORDER": ("未先打单张字牌", "a single honour kept while discarding another tile"),
    "WIN_CAISHEN_DANDIAO_DISCARD": ("财神单钓点炮胡", "a 财神 single wait won on a discard"),
    "CAISHEN_MONEY_MISMATCH": ("财神钱算错", "wrong 财神 money"),
})

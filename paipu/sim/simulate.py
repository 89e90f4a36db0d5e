"""The reference simulator: bots play complete Qujing games and log them as a correct server would.

Every hand is played on a shuffled 136-tile wall by four (or three) bots that
choose among the legal moves: win (and sometimes decline a discard win, which
brings 过胡), pong, exposed / added / concealed kong (chickens as the rules
allow), chow when the room enabled it, a kong right after a call (吃杠 / 碰杠),
robbing an added kong (抢杠, several robbers), several winners on one discard
(一炮多响), 养猪 bets, the exhaustive draw at the reserve and the tail pair
(翻屁股).  Fans, points and settlements come from the rules engine
(:mod:`audits.engine`, :mod:`audits.fans`, :mod:`audits.settlement`); this module
only decides what the bots do and writes the events, through
:class:`schema.builder.GameBuilder`, while a :class:`replay.Replayer` keeps the
table (so the simulator and the audit read the same table).

The same :class:`SimConfig` (seed included) always gives the same events:
the only source of chance is ``random.Random(seed)``.

Wall order (``HandStarted.wall``): the dealer's 14 tiles are ``wall[0:14]``, then
13 for each seat in seat order from the dealer's next seat; draws take from the
head; the tail pair is ``wall[-1]``, ``wall[-2]``; each later ``TailTurned``
turns the next tile from the tail end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Iterable, Iterator, Optional

import msgspec

from audits import hands as H
from replay import Replayer
from replay.state import KEY_STEP
from schema import events as ev
from schema.builder import EPOCH, GameBuilder
from schema.reader import encode_events
from schema.ruleset import Ruleset, resolve
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES, WINDS

from audits import claims as C
from audits import fans as F
from audits import settlement as S

__all__ = ["SimConfig", "SimStats", "SimError", "simulate_games", "simulate_encoded", "write_log"]

TOTAL = 136


@dataclass
class SimConfig:
    """What to simulate.

    ``options`` override the preset (``{"chow": True, "dianji": True}``);
    ``max_hands`` ends a room after that many hands (``None``: only 20分敲锣
    ends it, with a safety limit of 200 hands); ``players`` 3 opens a 4-seat room
    and turns it into a 3-seat room (RoomResized + FeeRefunded).

    Anomaly knobs (for the analytics work; all off by default):
    ``colluding_pair`` — those two seats feed each other winning discards;
    ``illegal_claimer`` — that seat sometimes pongs with a chicken acting as wild
    (holding only one of the tile);
    ``dianji_underpay_build`` — games whose build has this name pay 点鸡 one short;
    ``biased_shuffle`` — the first draws after the deal skew toward low tiles.
    ``builds`` — when given, each game picks its build from these names.
    """

    preset: str = "qujing-xiaoji"
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 1
    seed: int = 0
    max_hands: Optional[int] = 8
    players: int = 4
    include_wall: bool = True
    colluding_pair: Optional[tuple[int, int]] = None
    illegal_claimer: Optional[int] = None
    dianji_underpay_build: Optional[str] = None
    biased_shuffle: bool = False
    build: str = "1.0"
    builds: tuple[str, ...] = ()
    server: str = "paipu-sim"
    billing: str = "creator"
    #: Room fee in diamonds for a 4-seat room (a 3-seat room costs 3/4 of it).
    fee: int = 4
    #: Chance that a bot declines a legal discard win (过胡 follows).
    decline_win: float = 0.12
    #: Chance that a hand's wall is arranged so one seat is dealt the makings of a
    #: rare hand (大四喜 winds, or three quads for 四杠); play stays legal and audited.
    rare_hands: float = 0.0
    #: First game id number (ids are ``{prefix}{seed}-{n:05d}``).
    game_prefix: str = "sim-"


@dataclass
class SimStats:
    """Counts of what the simulator did, for speed and coverage reports."""

    games: int = 0
    hands: int = 0
    wins: int = 0
    draws: int = 0
    claims: dict[str, int] = field(default_factory=dict)
    fans: dict[str, int] = field(default_factory=dict)

    def bump(self, d: dict[str, int], k: str, n: int = 1) -> None:
        d[k] = d.get(k, 0) + n

    def merge(self, other: "SimStats") -> None:
        """Add another run's counts to these."""
        self.games += other.games
        self.hands += other.hands
        self.wins += other.wins
        self.draws += other.draws
        for k, v in other.claims.items():
            self.bump(self.claims, k, v)
        for k, v in other.fans.items():
            self.bump(self.fans, k, v)


class SimError(ValueError):
    """A simulation that cannot be set up (bad preset, option or player count)."""


def _ruleset(cfg: SimConfig) -> Ruleset:
    from schema.ruleset import RulesetError

    if cfg.players not in (3, 4):
        raise SimError(f"players must be 3 or 4, not {cfg.players}")
    try:
        opts = dict(cfg.options)
        opts.pop("players", None)
        rules = resolve(cfg.preset, opts)
    except RulesetError as e:
        raise SimError(str(e)) from None
    return msgspec.structs.replace(rules, players=cfg.players)


def _game_seeds(config: SimConfig) -> Iterator[tuple[int, int]]:
    """(game index, that game's own seed), drawn in order from ``random.Random(config.seed)``."""
    rng = random.Random(config.seed)
    for g in range(config.games):
        yield g, rng.getrandbits(64)


def simulate_games(config: SimConfig, stats: Optional[SimStats] = None) -> Iterator[list[ev.Event]]:
    """Play ``config.games`` rooms; yield each room's events (GameOpened … GameClosed)."""
    rules = _ruleset(config)
    stats = stats if stats is not None else SimStats()
    for g, seed in _game_seeds(config):
        yield _Game(config, rules, random.Random(seed), g, stats).play()


def _play_encoded(args: tuple[SimConfig, int, int]) -> tuple[bytes, SimStats]:
    config, g, seed = args
    stats = SimStats()
    events = _Game(config, _ruleset(config), random.Random(seed), g, stats).play()
    return encode_events(events), stats


def simulate_encoded(config: SimConfig, stats: Optional[SimStats] = None, jobs: int = 1) -> Iterator[bytes]:
    """Like :func:`simulate_games`, each room as JSON-lines bytes; ``jobs`` > 1 plays rooms in
    worker processes.  The bytes are the same whatever ``jobs`` (each room has its own seed)."""
    _ruleset(config)  # a bad configuration fails here, in the caller's process
    stats = stats if stats is not None else SimStats()
    if jobs <= 1:
        for events in simulate_games(config, stats):
            yield encode_events(events)
        return
    import multiprocessing

    with multiprocessing.get_context("fork" if hasattr(__import__("os"), "fork") else "spawn").Pool(jobs) as pool:
        work = ((config, g, seed) for g, seed in _game_seeds(config))
        for data, st in pool.imap(_play_encoded, work, chunksize=4):
            stats.merge(st)
            yield data


def write_log(path: str, events_iter: Iterable[Iterable[ev.Event]] | Iterable[ev.Event] | Iterable[bytes]) -> int:
    """Write games (lists of events, or encoded bytes) or a flat stream of events as JSON lines.

    Returns the number of lines written.  ``path`` ending in ``.gz`` is compressed
    deterministically (no timestamp in the header).
    """
    import gzip

    n = 0
    if path.endswith(".gz"):
        raw = open(path, "wb")
        out = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
    else:
        raw = None
        out = open(path, "wb")
    try:
        for item in events_iter:
            if isinstance(item, (bytes, bytearray)):
                out.write(item)
                n += item.count(b"\n")
                continue
            batch = [item] if isinstance(item, ev.Event) else list(item)
            out.write(encode_events(batch))
            n += len(batch)
    finally:
        out.close()
        if raw is not None:
            raw.close()
    return n


# ---------------------------------------------------------------------------
# one room


class _HandOver(Exception):
    """Raised inside a hand's play when the hand ends (won or drawn)."""


class _Game:
    def __init__(self, cfg: SimConfig, rules: Ruleset, rng: random.Random, index: int, stats: SimStats):
        self.cfg = cfg
        self.rules = rules
        self.rng = rng
        self.stats = stats
        self.n = rules.players
        self.wild = frozenset(TILE_INDEX[t] for t in rules.wilds)
        self.game_id = f"{cfg.game_prefix}{cfg.seed}-{index:05d}"
        self.build = rng.choice(cfg.builds) if cfg.builds else cfg.build
        self.underpay = cfg.dianji_underpay_build is not None and self.build == cfg.dianji_underpay_build
        # Player ids: a pool of 24; the anomaly seats always carry the same players.
        pool = [f"P{i:02d}" for i in range(4, 25)]
        rng.shuffle(pool)
        seats = pool[:4]
        if cfg.colluding_pair is not None:
            a, b = cfg.colluding_pair
            seats[a], seats[b] = "P01", "P02"
        if cfg.illegal_claimer is not None:
            seats[cfg.illegal_claimer] = "P03"
        self.seats4 = seats
        opts = {k: v for k, v in cfg.options.items() if k != "players"}
        self.creator = rng.randrange(self.n)
        start_points = rules.qiaoluo_points if rules.qiaoluo else 0
        self.b = GameBuilder(self.game_id, preset=cfg.preset, seats=seats, options=opts, creator=self.creator,
                             start_points=start_points, server=cfg.server, build=self.build,
                             billing=cfg.billing, fee=cfg.fee, start=EPOCH + timedelta(hours=3 * index))
        self.r = Replayer()

    # -- writing ---------------------------------------------------------------

    def emit(self, cls: type, **fields: Any) -> ev.Event:
        """Write one event (next seq and time) and apply it to the table."""
        e = self.b.add(cls, **fields)
        self.r.apply(e)
        return e

    # -- the room --------------------------------------------------------------

    def play(self) -> list[ev.Event]:
        cfg, rules = self.cfg, self.rules
        self.emit_open()
        n = self.n
        if n == 3:
            self.emit(ev.RoomResized, seats=self.seats4[:3])
        charged = False
        dealer = self.creator
        max_hands = cfg.max_hands if cfg.max_hands is not None else 200
        reason = "hands_done"
        hand_no = 0
        while hand_no < max_hands:
            hand_no += 1
            result = _Hand(self, hand_no, dealer).play()
            self.stats.hands += 1
            if not charged:
                charged = True
                self.charge_fee()
            dealer = dealer_after(dealer, result)
            if rules.qiaoluo and min(self.r.work.scores) <= 0:
                reason = "knocked_out"
                break
        self.emit(ev.GameClosed, reason=reason, scores=list(self.r.work.scores))
        self.stats.games += 1
        return self.b.events

    def emit_open(self) -> None:
        self.r.apply(self.b.open())

    def charge_fee(self) -> None:
        """钻石: the fee is charged when the first hand is settled (never before);
        a 4→3 room refunds the creator the difference (creator billing)."""
        cfg = self.cfg
        for fe in S.fees_at_first_settlement(cfg.billing, self.creator, cfg.fee, 4, self.n):
            if fe.kind == "charged":
                self.emit(ev.FeeCharged, seat=fe.seat, amount=fe.amount)
            else:
                self.emit(ev.FeeRefunded, seat=fe.seat, amount=fe.amount)


# ---------------------------------------------------------------------------
# one hand


class _Hand:
    def __init__(self, game: _Game, number: int, dealer: int):
        self.g = game
        self.rules = game.rules
        self.rng = game.rng
        self.n = game.n
        self.wild = game.wild
        self.number = number
        self.dealer = dealer
        self.w = game.r.work  # the live table (read only)
        # passing restrictions, cleared by the seat's own draw / chow / pong / kong
        self.guohu = [False] * self.n
        self.guo_pong: list[set[int]] = [set() for _ in range(self.n)]
        self.guo_kong: list[set[int]] = [set() for _ in range(self.n)]
        self.flavour = [self._pick_flavour() for _ in range(self.n)]
        self.kongs_declared = [0] * self.n

    def _pick_flavour(self) -> Optional[str]:
        x = self.rng.random()
        if x < 0.25:
            return "suit"
        if x < 0.40:
            return "pairs"
        if x < 0.48:
            return "honours"
        if x < 0.58:
            return "winds"   # chases wind pongs: 小四喜 / 大四喜
        if x < 0.68:
            return "kongs"   # keeps pairs and triplets, declares every kong it can: 双杠 / 四杠
        return None

    def emit(self, cls: type, **fields: Any) -> ev.Event:
        return self.g.emit(cls, **fields)

    # -- the wall ---------------------------------------------------------------

    def shuffle(self) -> list[int]:
        wall = [t for t in range(NUM_KINDS) for _ in range(4)]
        self.rng.shuffle(wall)
        if self.g.cfg.biased_shuffle:
            dealt = 14 + 13 * (self.n - 1)
            lo, hi = dealt, dealt + 24
            low = [j for j in range(hi, TOTAL - 30) if wall[j] < 27 and wall[j] % 9 <= 2]
            for i in range(lo, hi):
                if low and self.rng.random() < 0.6 and not (wall[i] < 27 and wall[i] % 9 <= 2):
                    j = low.pop(self.rng.randrange(len(low)))
                    wall[i], wall[j] = wall[j], wall[i]
        if self.g.cfg.rare_hands and self.rng.random() < self.g.cfg.rare_hands:
            self._seed_rare_hand(wall)
        return wall

    def _seed_rare_hand(self, wall: list[int]) -> None:
        """Swap tiles into one seat's deal: three wind triplets and a wind pair (大四喜
        in reach), or three quads (四杠 in reach); that seat plays for it."""
        rng = self.rng
        seat = rng.randrange(self.n)
        k = (seat - self.dealer) % self.n
        start = 0 if k == 0 else 14 + 13 * (k - 1)
        if rng.random() < 0.5:
            winds = list(WINDS)
            rng.shuffle(winds)
            want = [t for t in winds[:3] for _ in range(3)] + [winds[3]] * 2
            self.flavour[seat] = "winds"
        else:
            kinds = rng.sample(range(NUM_KINDS), 3)
            want = [t for t in kinds for _ in range(4)]
            self.flavour[seat] = "kongs"
        for i, t in enumerate(want):
            here = start + i
            j = wall.index(t, here) if t in wall[here:] else wall.index(t)
            wall[here], wall[j] = wall[j], wall[here]

    def remaining(self) -> int:
        """Tiles that count as remaining for 黄庄 (the face-up tail counts by default)."""
        w = self.w
        if self.rules.draw_reserve_counts_tail:
            return w.undrawn
        return w.undrawn - len(w.tail)

    def reserve(self) -> int:
        return self.rules.reserve_for(sum(self.kongs_declared))

    # -- play ------------------------------------------------------------------

    def play(self) -> "HandResult":
        g, n, rng = self.g, self.n, self.rng
        wall = self.shuffle()
        self.wall = wall
        self.emit(ev.HandStarted, hand=self.number, dealer=self.dealer,
                  wall=[TILE_NAMES[t] for t in wall] if g.cfg.include_wall else None, dice=None)
        if self.rules.yangzhu:
            for s in range(n):
                self.emit(ev.PigBetPlaced, seat=s, bet=rng.choice((0, 0, 1, 2)))
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[self.dealer] = [TILE_NAMES[t] for t in sorted(wall[0:14])]
        pos = 14
        for k in range(1, n):
            s = (self.dealer + k) % n
            hands[s] = [TILE_NAMES[t] for t in sorted(wall[pos:pos + 13])]
            pos += 13
        self.head = pos
        self.tail_next = TOTAL - 3
        self.emit(ev.TilesDealt, hands=hands)
        for seat in range(n):
            # a seat dealt many winds (wilds help) plays for the wind hands
            winds = sum(1 for name in hands[seat] if TILE_INDEX[name] in WINDS or TILE_INDEX[name] in self.wild)
            if winds >= 6:
                self.flavour[seat] = "winds"
        self.emit(ev.TailTurned, tiles=[TILE_NAMES[wall[-1]], TILE_NAMES[wall[-2]]])
        try:
            self._loop()
        except _HandOver as over:
            return over.args[0]
        raise AssertionError("hand loop ended without a result")  # pragma: no cover

    def _loop(self) -> None:
        n = self.n
        seat = self.dealer
        drew: Optional[tuple[int, str]] = None  # (tile, source) of the draw that gave the turn
        after_call = False
        while True:
            t, after_kong = self._turn(seat, drew, after_call)
            claim = self._claims(seat, t, after_kong)
            if claim is not None:
                seat, kind = claim
                drew = None
                after_call = True
                if kind == "kong":
                    drew = self._replacement(seat)
                continue
            nxt = (seat + 1) % n
            if self.remaining() <= self.reserve():
                # 黄庄: the hand ends drawn when the remaining tiles are down to the reserve.
                self.emit(ev.HandDrawn, remaining=self.remaining())
                self._end(HandResult(winners=(), how="drawn", from_seat=None))
            tile = self.wall[self.head]
            self.head += 1
            self._clear(nxt)
            self.emit(ev.TileDrawn, seat=nxt, tile=TILE_NAMES[tile], source="wall")
            seat, drew, after_call = nxt, (tile, "wall"), False

    def _clear(self, seat: int) -> None:
        """The seat's own draw, chow, pong or kong lifts 过胡 / 过手碰 / 过手杠."""
        self.guohu[seat] = False
        self.guo_pong[seat].clear()
        self.guo_kong[seat].clear()

    # -- a seat's turn -----------------------------------------------------------

    def _view(self, seat: int) -> "SeatView":
        w = self.w
        return SeatView(self.rules, self.wild, w.hands[seat], w.melds[seat])

    def _turn(self, seat: int, drew: Optional[tuple[int, str]], after_call: bool) -> tuple[int, bool]:
        """Act until the seat discards (or the hand ends); return (discard, right after a kong)."""
        kong_this_turn = drew is not None and drew[1] == "tail"
        while True:
            view = self._view(seat)
            if drew is not None:
                win = self_draw_win(self, seat, view, drew[0], drew[1] == "tail")
                if win is not None and not self._holds_out(seat, win):
                    self._win([(seat, win)], "self_draw", drew[0], None)
            kong = self._choose_kong(seat, view)
            if kong is not None:
                kind, own, added = kong
                self._clear(seat)
                if added:
                    self.emit(ev.KongAdded, seat=seat, kind=TILE_NAMES[kind], tile=TILE_NAMES[own[0]])
                    self.kongs_declared[seat] += 1
                    self._robbing(seat, own[0], kind)
                else:
                    self.emit(ev.KongConcealed, seat=seat, kind=TILE_NAMES[kind],
                              tiles=[TILE_NAMES[x] for x in own])
                    self.kongs_declared[seat] += 1
                self.g.stats.bump(self.g.stats.claims, "kong_added" if added else "kong_concealed")
                if after_call:
                    self.g.stats.bump(self.g.stats.claims, "kong_after_call")
                drew = self._replacement(seat)
                kong_this_turn = True
                continue
            t = self._choose_discard(seat, view)
            self.emit(ev.TileDiscarded, seat=seat, tile=TILE_NAMES[t])
            return t, kong_this_turn

    def _replacement(self, seat: int) -> tuple[int, str]:
        """After a kong: take one face-up tail tile (one that wins if any), turn the next one."""
        w = self.w
        tail = list(w.tail)
        view = self._view(seat)
        choice = None
        for t in tail:
            if would_win_with(view, t):
                choice = t
                break
        if choice is None:
            choice = tail[0] if len(tail) == 1 or self.rng.random() < 0.5 else tail[1]
        self.emit(ev.TileDrawn, seat=seat, tile=TILE_NAMES[choice], source="tail")
        if self.tail_next >= self.head:
            self.emit(ev.TailTurned, tiles=[TILE_NAMES[self.wall[self.tail_next]]])
            self.tail_next -= 1
        return choice, "tail"

    def _can_kong_now(self) -> bool:
        # A kong is allowed down to the reserve (still at exactly 20), and needs a
        # face-up tail tile and a wall tile to turn up after it.
        if not S.kong_allowed_at(self.rules, self.remaining(), sum(self.kongs_declared)):
            return False
        return len(self.w.tail) >= 1 and self.tail_next >= self.head

    def _holds_out(self, seat: int, win: "WinScore") -> bool:
        """A "kongs" or "winds" bot close to 四杠 / 大四喜 lets a smaller win go while
        plenty of wall is left (a legal choice; a passed discard win is 过胡)."""
        if self.remaining() <= 40 or "sigang" in win.fans or "dasixi" in win.fans:
            return False
        flavour = self.flavour[seat]
        melds = self.w.melds[seat]
        if flavour == "kongs":
            return 2 <= sum(1 for m in melds if m.is_kong) < 4
        if flavour == "winds":
            hand = self.w.hands[seat]
            wind_sets = sum(1 for m in melds if m.kind != "chow" and WINDS[0] <= m.of <= WINDS[-1])
            wind_sets += sum(1 for t in WINDS if hand[t] >= 3)
            return wind_sets >= 2
        return False

    def _choose_kong(self, seat: int, view: "SeatView") -> Optional[tuple[int, list[int], bool]]:
        """Natural kongs are declared most of the time; a kong that spends chickens
        (precious) now and then; the bot picks among the engine's kong options."""
        if not self._can_kong_now():
            return None
        rng = self.rng
        x = rng.random()
        if self.flavour[seat] == "kongs":
            options = own_kongs(view)
            return rng.choice(options) if options else None
        if x >= 0.85:
            return None
        if x >= 0.2 and not _natural_kong_possible(view):
            return None  # only chicken kongs are possible: the bot keeps its chickens this time
        options = own_kongs(view)
        if not options:
            return None
        natural = [o for o in options if all(t == o[0] for t in o[1])]
        if natural and (x < 0.68 or len(natural) == len(options)):
            return rng.choice(natural)
        if x < 0.2:
            return rng.choice(options)
        return None

    def _choose_discard(self, seat: int, view: "SeatView") -> int:
        g = self.g
        cfg = g.cfg
        # A colluder feeds the partner a winning tile when it holds one.
        if cfg.colluding_pair is not None and seat in cfg.colluding_pair:
            a, b = cfg.colluding_pair
            partner = b if seat == a else a
            if partner < self.n and not self.guohu[partner]:
                pv = self._view(partner)
                for t in plain_waits(pv):
                    if view.counts[t] > 0 and t not in self.wild:
                        if discard_win(self, partner, pv, t, seat, False) is not None:
                            return t
        return bot_discard(view, self.rng, self.flavour[seat])

    # -- claims on a discard -------------------------------------------------------

    def _claims(self, d: int, t: int, after_kong: bool) -> Optional[tuple[int, str]]:
        """Offer the discard to the other seats; return (seat, claim) executed, or None.

        Rules enforced: priority 胡 > 杠 > 碰 > 吃 (several winners allowed);
        过胡 bars every discard win, 过手碰 / 过手杠 bar that tile, until the seat's
        own next draw, chow, pong or kong.
        """
        n, rng, stats = self.n, self.rng, self.g.stats
        cfg = self.g.cfg
        order = [(d + k) % n for k in range(1, n)]
        offers: dict[int, dict[str, Any]] = {}
        could: dict[int, list[str]] = {}
        kong_ok = self._can_kong_now()
        for s in order:
            view = self._view(s)
            o: dict[str, Any] = {}
            c: list[str] = []
            win = discard_win(self, s, view, t, d, after_kong)
            if win is not None:
                c.append("win")
                if not self.guohu[s]:
                    o["win"] = win
            k = exposed_kong(view, t)
            if k is not None:
                c.append("kong")
                if kong_ok and t not in self.guo_kong[s]:
                    o["kong"] = k
            p = pong_tiles(view, t)
            if p is not None:
                c.append("pong")
                if t not in self.guo_pong[s]:
                    o["pong"] = p
            elif cfg.illegal_claimer == s and rng.random() < 0.5:
                bad = wild_pong_tiles(view, t)
                if bad is not None:
                    o["pong"] = bad
            if self.rules.chow:
                chows = chow_options(view, t, s, d)
                if chows:
                    o["chow"] = chows
            could[s] = c
            if o:
                offers[s] = o
        colluders = cfg.colluding_pair or ()
        # The bots decide: a win is taken unless declined; then kong, pong, chow.
        decided: dict[int, str] = {}
        for s, o in offers.items():
            if "win" in o:
                if (s in colluders and d in colluders) or (
                        rng.random() >= cfg.decline_win and not self._holds_out(s, o["win"])):
                    decided[s] = "win"
                    continue
            eager = self.flavour[s] == "kongs" or (self.flavour[s] == "winds" and WINDS[0] <= t <= WINDS[-1])
            if "kong" in o and (eager or rng.random() < (0.75 if o["kong"].count(t) == 3 else 0.3)):
                decided[s] = "kong"
            elif "pong" in o and (eager or rng.random() < (0.95 if s == cfg.illegal_claimer else 0.6)):
                decided[s] = "pong"
            elif "chow" in o and rng.random() < 0.45:
                decided[s] = "chow"
        winners = [s for s in order if decided.get(s) == "win"]
        top: Optional[tuple[int, str]] = None
        if not winners:
            for claim in ("kong", "pong", "chow"):
                top = next(((s, claim) for s in order if decided.get(s) == claim), None)
                if top:
                    break
        # Log each offered seat's answer, in seat order from the discarder's next.
        for s in order:
            o = offers.get(s)
            if o is not None:
                c = decided.get(s)
                if c is None:
                    self.emit(ev.ClaimPassed, seat=s,
                              claims=[k for k in ("win", "kong", "pong", "chow") if k in o])
                else:
                    self.emit(ev.ClaimDeclared, seat=s, claim=c)
            # passing restrictions: a win, kong or pong the seat could make and did not
            taken = decided.get(s)
            if top is not None and top[0] != s:
                taken = None
            if "win" in could[s] and taken != "win" and not winners:
                if not self.guohu[s] and "win" in (o or {}):
                    stats.bump(stats.claims, "win_declined")
                self.guohu[s] = True
            if "kong" in could[s] and taken != "kong":
                self.guo_kong[s].add(t)
            if "pong" in could[s] and taken != "pong":
                self.guo_pong[s].add(t)
        if winners:
            self._win([(s, offers[s]["win"]) for s in winners], "discard", t, d)
        if top is None:
            return None
        s, claim = top
        self._clear(s)
        stats.bump(stats.claims, claim)
        if claim == "kong":
            own = offers[s]["kong"]
            self.emit(ev.KongExposed, seat=s, from_seat=d, kind=TILE_NAMES[t], tile=TILE_NAMES[t],
                      tiles=[TILE_NAMES[x] for x in own])
            self.kongs_declared[s] += 1
            stats.bump(stats.claims, "kong_exposed_wild" if any(x != t for x in own) else "kong_exposed")
        elif claim == "pong":
            own = offers[s]["pong"]
            self.emit(ev.Ponged, seat=s, from_seat=d, tile=TILE_NAMES[t], tiles=[TILE_NAMES[x] for x in own])
            if any(x != t for x in own):
                stats.bump(stats.claims, "pong_illegal_wild")
        else:
            own = rng.choice(offers[s]["chow"])
            self.emit(ev.Chowed, seat=s, from_seat=d, tile=TILE_NAMES[t], tiles=[TILE_NAMES[x] for x in own])
        return s, claim

    def _robbing(self, adder: int, tile: int, kind: int) -> None:
        """抢杠: seats that can win on the added tile may rob the kong."""
        n = self.n
        robbers = []
        for k in range(1, n):
            s = (adder + k) % n
            win = robbing_win(self, s, self._view(s), tile, adder)
            if win is not None:
                if self.rng.random() < 0.9:
                    robbers.append((s, win))
                else:
                    self.emit(ev.ClaimPassed, seat=s, claims=["win"])
                    self.guohu[s] = True
        if robbers:
            for s, _ in robbers:
                self.emit(ev.ClaimDeclared, seat=s, claim="win")
            self._win(robbers, "robbed_kong", tile, adder)

    # -- the end of a hand ---------------------------------------------------------

    def _win(self, winners: list[tuple[int, "WinScore"]], how: str, tile: int, from_seat: Optional[int]) -> None:
        stats = self.g.stats
        if how == "self_draw":
            pass
        elif how == "discard" and len(winners) > 1:
            stats.bump(stats.claims, "multi_win")
        stats.bump(stats.claims, f"win_{how}")
        ws = []
        for s, sc in winners:
            for f in sc.fans:
                stats.bump(stats.fans, f)
            if not sc.fans:
                stats.bump(stats.fans, "(none)")
            ws.append(ev.Winner(seat=s, fans=list(sc.fans), fan=sc.fan, points=sc.points))
        self.emit(ev.HandWon, winners=ws, how=how, tile=TILE_NAMES[tile], from_seat=from_seat)
        result = HandResult(winners=tuple(s for s, _ in winners), how=how, from_seat=from_seat)
        self._settle(result, winners)
        stats.wins += 1
        self._end(result)

    def _settle(self, result: "HandResult", winners: list) -> None:
        transfers, scores = settle_hand(self, result, winners)
        self.emit(ev.HandSettled, transfers=transfers, scores=scores)

    def _end(self, result: "HandResult") -> None:
        if result.how == "drawn":
            self.g.stats.draws += 1
            self._settle(result, [])
        raise _HandOver(result)


# ---------------------------------------------------------------------------
# the rules, as the engine states them (audits.hands / audits.fans / audits.settlement)


class HandResult(msgspec.Struct, frozen=True):
    """How a hand ended: the winners (seat order of payment), how, and the discarder/adder."""

    winners: tuple[int, ...]
    how: str
    from_seat: Optional[int]


class WinScore(msgspec.Struct, frozen=True):
    """A legal win as the engine scores it."""

    fans: tuple[str, ...]
    fan: int
    points: int


class SeatView:
    """One seat's concealed tiles and melds, with the split the engine works on."""

    __slots__ = ("rules", "wild", "counts", "melds", "nat", "w", "use", "has_melds", "wild_tiles")

    def __init__(self, rules: Ruleset, wild: frozenset[int], counts: list[int], melds: list):
        self.rules = rules
        self.wild = wild
        self.counts = counts
        self.melds = melds
        nat = list(counts)
        w = 0
        wild_tiles: list[int] = []
        for k in wild:
            c = nat[k]
            if c:
                w += c
                wild_tiles.extend([k] * c)
                nat[k] = 0
        self.nat = nat
        self.w = w
        self.wild_tiles = sorted(wild_tiles)
        self.use = H.meld_use_of(melds) if melds else None
        self.has_melds = bool(melds)

    def tiles(self) -> list[int]:
        c = self.counts
        return [t for t in range(NUM_KINDS) for _ in range(c[t])]


def _score(view: SeatView, extra: Optional[int], ctx: "F.WinContext", passed_win: bool = False) -> Optional[WinScore]:
    """The engine's verdict on winning now (``extra``: the tile won on, not yet in hand)."""
    nat, w = view.nat, view.w
    if extra is not None:
        nat = list(nat)
        if extra in view.wild and ctx.how == "self_draw":
            w += 1
        else:
            nat[extra] += 1  # a discarded or robbed chicken is a plain tile
    # fast path: a complete hand (or 四小鸡) before the slow scorer; the check
    # without the melds' max-four headroom comes first (it can only accept more)
    if w < 4 and not (H.is_winning(nat, w, None, view.has_melds)
                      and (view.use is None or H.is_winning(nat, w, view.use, view.has_melds))):
        return None
    tiles = view.tiles()
    if extra is not None:
        tiles.append(extra)
    sc = F.score_hand(tiles, view.melds, view.rules, ctx, passed_win)
    if not sc.wins:
        return None
    return WinScore(tuple(sc.fans), sc.fan, sc.points)


def self_draw_win(hand: "_Hand", seat: int, view: SeatView, tile: int, after_kong: bool) -> Optional[WinScore]:
    """自摸 on the tile just drawn (杠上开花 when it came from the tail after a kong)."""
    return _score(view, None, F.WinContext("self_draw", tile, after_kong=after_kong))


def discard_win(hand: "_Hand", seat: int, view: SeatView, tile: int, from_seat: int,
                kong_discard: bool) -> Optional[WinScore]:
    """点炮: a win on another seat's discard (≥1 fan; 过胡 is the caller's business)."""
    return _score(view, tile, F.WinContext("discard", tile, kong_discard=kong_discard))


def robbing_win(hand: "_Hand", seat: int, view: SeatView, tile: int, adder: int) -> Optional[WinScore]:
    """抢杠: a win on the tile added to a kong (counts as a self-draw: 底和 is enough)."""
    return _score(view, tile, F.WinContext("robbed_kong", tile))


def would_win_with(view: SeatView, tile: int) -> bool:
    """Whether drawing ``tile`` completes the hand (for choosing the tail tile)."""
    nat, w = list(view.nat), view.w
    if tile in view.wild:
        w += 1
    else:
        nat[tile] += 1
    return w >= 4 or (H.is_winning(nat, w, None, view.has_melds)
                      and (view.use is None or H.is_winning(nat, w, view.use, view.has_melds)))


def plain_waits(view: SeatView) -> list[int]:
    """Plain tiles that would complete the hand."""
    return H.waits(view.nat, view.w, view.use, view.has_melds)


def _natural_kong_possible(view: SeatView) -> bool:
    """Cheap pre-check: four natural of a kind, or the fourth natural tile of one's own pong."""
    nat = view.nat
    if max(nat) == 4:
        return True
    return any(m.kind == "pong" and nat[m.of] for m in view.melds)


def own_kongs(view: SeatView) -> list[tuple[int, list[int], bool]]:
    """Kongs from the hand as the engine offers them: (kind, tiles from hand, added?).

    暗杠: 4 natural, or 3/2/1 natural + chickens; 补杠: on one's own pong, the
    fourth tile natural or a chicken (:mod:`audits.claims`).
    """
    out: list[tuple[int, list[int], bool]] = []
    if not view.melds and max(view.nat) + view.w < 4 and max(view.counts) < 4:
        return out  # no kind reaches four even with every chicken (cheap pre-check)
    for k, tiles in C.concealed_kong_options(view.counts, view.rules):
        out.append((k, list(tiles), False))
    for k, tile in C.added_kong_options(view.counts, view.melds, view.rules):
        out.append((k, [tile], True))
    return out


def exposed_kong(view: SeatView, t: int) -> Optional[list[int]]:
    """直杠 on a discard: 3 natural, or a natural pair + 1 chicken (the bot prefers natural)."""
    opts = C.exposed_kong_options(view.counts, t, view.rules)
    return list(opts[0]) if opts else None


def pong_tiles(view: SeatView, t: int) -> Optional[list[int]]:
    """碰: two equal tiles of the discard's kind (two chickens may pong a discarded chicken)."""
    return [t, t] if C.pong_possible(view.counts, t) else None


def wild_pong_tiles(view: SeatView, t: int) -> Optional[list[int]]:
    """An illegal pong (anomaly): one natural tile and a chicken acting as wild."""
    if t not in view.wild and view.counts[t] == 1 and view.wild_tiles:
        return [t, view.wild_tiles[0]]
    return None


def chow_options(view: SeatView, t: int, claimer: int, discarder: int) -> list[list[int]]:
    """吃 options from the engine (a chicken only as its plain self); plain tiles preferred."""
    out = [list(p) for p in C.chow_options(view.counts, t, claimer, discarder, view.rules)]
    plain = [o for o in out if o[0] not in view.wild and o[1] not in view.wild]
    return plain or out


def bot_discard(view: SeatView, rng: random.Random, flavour: Optional[str]) -> int:
    """A simple bot: keep 听牌 if it can, else throw the least useful tile; keep chickens."""
    _counts, nat = view.counts, view.nat
    cands = [t for t in range(NUM_KINDS) if nat[t]]
    if not cands:
        return view.wild_tiles[-1]
    if view.wild_tiles and rng.random() < 0.03:
        return view.wild_tiles[-1]  # now and then a chicken goes (plain 1s for everyone)
    # the bot's own estimate of 听牌 after each discard (one more chicken completes
    # the hand; ignores the melds' max-four headroom): suit keys updated in place
    tenpai = []
    keys = list(H.hand_keys(nat))
    w1 = view.w + 1
    complete = H.is_complete_keys
    for t in cands:
        su = t // 9
        delta = KEY_STEP[t]
        keys[su] -= delta
        if complete(keys[0], keys[1], keys[2], keys[3], w1):
            tenpai.append(t)
        keys[su] += delta
    if flavour == "pairs" and not view.has_melds and not tenpai:
        work = list(nat)
        for t in cands:
            work[t] -= 1
            if H.is_seven_pairs(work, w1, False):
                tenpai.append(t)
            work[t] += 1
    pool = tenpai or cands
    suit_counts = [sum(nat[9 * s:9 * s + 9]) for s in range(3)]
    main = max(range(3), key=lambda s: suit_counts[s])
    best, best_v = pool[0], None
    for t in pool:
        c = nat[t]
        v = c * c * 3
        if t < 27:
            r = t % 9
            for d, wgt in ((-2, 1), (-1, 3), (1, 3), (2, 1)):
                if 0 <= r + d <= 8:
                    v += wgt * (1 if nat[t + d] else 0)
            if r in (0, 8):
                v -= 1
            if flavour == "suit" and t // 9 != main:
                v -= 8
            elif flavour in ("honours", "winds"):
                v -= 4
        else:
            if flavour == "suit":
                v += 2
            elif flavour == "honours":
                v += 8 + 4 * c
            elif flavour == "winds" and t < 31:
                v += 12 + 6 * c
        if flavour == "pairs":
            v += 4 * (c >= 2)
        elif flavour == "kongs":
            v += 10 * (c >= 2) + 10 * (c >= 3)
        v += rng.random()
        if best_v is None or v < best_v:
            best, best_v = t, v
    return best


def settle_hand(hand: "_Hand", result: HandResult, winners: list[tuple[int, WinScore]]
                ) -> tuple[list[ev.Transfer], list[int]]:
    """The hand's transfers and scores, by :func:`audits.settlement.settle`."""
    w = hand.w
    rules = hand.rules
    how = None if result.how == "drawn" else result.how
    pairs = [(s, sc.points) for s, sc in winners]
    chickens = list(w.chickens) if rules.dianji else None
    if hand.g.underpay and chickens is not None:
        # anomaly: this build pays every 点鸡 transfer one short
        tr_win = S.win_transfers(rules, pairs, how, result.from_seat, list(w.bets)) if pairs else []
        tr_dj = [msgspec.structs.replace(t, amount=t.amount - 1) for t in S.dianji_transfers(rules, chickens)]
        paid, scores, _ = S.apply_transfers(rules, w.scores, tr_win + [t for t in tr_dj if t.amount > 0])
        return paid, scores
    paid, scores, _ = S.settle(rules, list(w.scores), pairs, how, result.from_seat,
                               list(w.bets) if rules.yangzhu else None, chickens)
    return paid, scores


def dealer_after(dealer: int, result: HandResult) -> int:
    """The winner deals; the dealer keeps the deal after 黄庄; after 一炮多响 the discarder."""
    return S.next_dealer(dealer, list(result.winners), None if result.how == "drawn" else result.how,
                         result.from_seat)

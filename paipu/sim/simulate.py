"""The reference simulator: bots play complete games and log them as a correct server would.

Every hand is played on a shuffled 136-tile wall by four (or three) bots that
choose among the legal moves: win (and sometimes decline a discard win, which
brings 过胡), pong, exposed / added / concealed kong (chickens as the rules
allow), chow when the room enabled it, a kong right after a call (吃杠 / 碰杠),
robbing an added kong (抢杠, several robbers), several winners on one discard
(一炮多响), 养猪 bets, the exhaustive draw at the reserve and the tail pair
(翻屁股).

Every rule comes from the ruleset's family (:func:`audits.rules.family_of`):
what a hand may claim, the passing restrictions (a :class:`PassBook` judged by
``family.claims.pass_violation``), claim ranks, wins and fans, the settlement, the
exhaustive draw, the tail pool, dealer rotation and billing.  This module only
decides what the bots do among the moves the family allows, and writes the
events through :class:`schema.builder.GameBuilder`, while a
:class:`replay.Replayer` keeps the table (so the simulator and the audit read
the same table).

The same :class:`SimConfig` (seed included) always gives the same events:
the only source of chance is ``random.Random(seed)``.

Wall order (``HandStarted.wall``): the dealer's 14 tiles (``hand_size`` + 1) are ``wall[0:14]``, then
13 for each seat in seat order from the dealer's next seat; draws take from the
head; the tail pool (two tiles in Qujing) is ``wall[-1]``, ``wall[-2]``; each
later ``TailTurned`` turns the next tile from the tail end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Collection, Iterable, Iterator, Optional, Sequence

import msgspec

from audits.rules import RuleFamily, family_of
from audits.rules.family import PassBook, Score, WinContext
from audits.rules.wilds import default_wild_of, hand_rules
from replay import Replayer, Table
from replay.melds import Meld
from schema import events as ev
from schema.builder import EPOCH, GameBuilder
from schema.reader import encode_events
from schema.ruleset import Ruleset, resolve
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES, WINDS, full_set, tiles_of

from .bot import SeatView, bot_discard
from .families import sim_parts
from .kept_waits import kept_before_draw, kept_wait_entry

__all__ = ["SimConfig", "SimStats", "SimError", "simulate_games", "simulate_encoded", "write_log"]



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
    #: Sichuan: the share of hands whose wall is arranged for a rare hand (天胡 / 地胡)
    arrange: float = 0.0
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
    #: hands with at least one winner
    wins: int = 0
    #: hands nobody won (流局)
    draws: int = 0
    #: winning seats over all hands (several in a hand under 一炮多响 and 血战到底)
    winners: int = 0
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
        self.winners += other.winners
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
    parts = sim_parts(rules.family)
    if parts is not None and parts.plants is not None:
        # a family's player plants only the anomalies it names; a knob it would ignore is refused
        asked = (("colluding_pair", cfg.colluding_pair is not None), ("illegal_claimer", cfg.illegal_claimer is not None),
                 ("dianji_underpay_build", cfg.dianji_underpay_build is not None), ("rare_hands", bool(cfg.rare_hands)),
                 ("biased_shuffle", cfg.biased_shuffle))
        ignored = [name for name, on in asked if on and name not in parts.plants]
        if ignored:
            raise SimError(f"the {rules.family} simulator does not plant {', '.join(ignored)} "
                           f"(it plants {', '.join(sorted(parts.plants)) or 'nothing'})")
    return msgspec.structs.replace(rules, players=cfg.players)


def _game_seeds(config: SimConfig) -> Iterator[tuple[int, int]]:
    """(game index, that game's own seed), drawn in order from ``random.Random(config.seed)``."""
    rng = random.Random(config.seed)
    for g in range(config.games):
        yield g, rng.getrandbits(64)


def _game_player(rules: Ruleset):
    """The game player of the ruleset's family (its registered one, :mod:`.families`), else
    the shared table driver :class:`_Game`."""
    parts = sim_parts(rules.family)
    player = parts.player() if parts is not None else None
    return player if player is not None else _Game


def simulate_games(config: SimConfig, stats: Optional[SimStats] = None) -> Iterator[list[ev.Event]]:
    """Play ``config.games`` rooms; yield each room's events (GameOpened … GameClosed)."""
    rules = _ruleset(config)
    stats = stats if stats is not None else SimStats()
    player = _game_player(rules)
    for g, seed in _game_seeds(config):
        yield player(config, rules, random.Random(seed), g, stats).play()


def _play_encoded(args: tuple[SimConfig, int, int]) -> tuple[bytes, SimStats]:
    config, g, seed = args
    stats = SimStats()
    rules = _ruleset(config)
    events = _game_player(rules)(config, rules, random.Random(seed), g, stats).play()
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
    from ..outfiles import open_output

    n = 0
    out = open_output(path)
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
    return n


# ---------------------------------------------------------------------------
# one room


class _HandOver(Exception):
    """Raised inside a hand's play when the hand ends (won or drawn)."""


class _Game:
    #: the hand player (a family's game player may play its hands with a subclass of :class:`_Hand`)
    hand_class: Any = None

    def __init__(self, cfg: SimConfig, rules: Ruleset, rng: random.Random, index: int, stats: SimStats):
        self.cfg = cfg
        self.rules = rules
        self.family: RuleFamily = family_of(rules)
        self.rng = rng
        self.stats = stats
        self.n = rules.players
        self.wild = self.family.table.wild_kinds(rules)
        self.game_id = f"{cfg.game_prefix}{cfg.seed}-{index:05d}"
        self.build = rng.choice(cfg.builds) if cfg.builds else cfg.build
        self.underpay = cfg.dianji_underpay_build is not None and self.build == cfg.dianji_underpay_build
        #: the last HandWon (the family's settlement facts read liabilities from it)
        self.last_won: Optional[ev.HandWon] = None
        seats = seat_players(cfg, rng)
        self.seats4 = seats
        opts = {k: v for k, v in cfg.options.items() if k != "players"}
        self.creator = rng.randrange(self.n)
        #: the next hand's dealer level (连庄), for families whose ``rotation`` counts one
        self.level = 1
        # a 20分敲锣 room opens every player at its start points (the family's check_room judges it)
        start_points = self.family.settlement.start_points(rules)
        self.b = GameBuilder(self.game_id, preset=cfg.preset, seats=seats, options=opts, creator=self.creator,
                             start_points=start_points, server=cfg.server, build=self.build,
                             billing=cfg.billing, fee=cfg.fee, start=EPOCH + timedelta(hours=3 * index))
        self.r = Replayer()
        self.table: Table = self.r.table

    # -- writing ---------------------------------------------------------------

    def emit(self, cls: type, **fields: Any) -> ev.Event:
        """Write one event (next seq and time) and apply it to the table."""
        e = self.b.add(cls, **fields)
        self.r.advance(e)  # the builder numbered it as the table's next event
        return e

    def emit_values(self, cls: type, *values: Any) -> ev.Event:
        """:meth:`emit` with the event's own fields as positional values, in the event
        type's order (:meth:`schema.builder.GameBuilder.add_values`)."""
        e = self.b.add_values(cls, *values)
        self.r.advance(e)
        return e

    def draw(self, seat: int, tile: int, source: str) -> None:
        """:meth:`emit` a ``TileDrawn`` (the table applies it without the dispatch)."""
        self.r.drawn(self.b.add_values(ev.TileDrawn, seat, TILE_NAMES[tile], source))

    def discard(self, seat: int, tile: int) -> None:
        """:meth:`emit` a ``TileDiscarded`` (the table applies it without the dispatch)."""
        self.r.discarded(self.b.add_values(ev.TileDiscarded, seat, TILE_NAMES[tile]))

    # -- the room --------------------------------------------------------------

    def play(self) -> list[ev.Event]:
        cfg, rules, family = self.cfg, self.rules, self.family
        self.r.apply(self.b.open())
        if self.n == 3:
            self.emit(ev.RoomResized, seats=self.seats4[:3])
        charged = False
        dealer = family.table.first_dealer(self.creator)
        if dealer is None:  # the family does not fix the first dealer (Guangdong: drawn by lot)
            dealer = self.rng.randrange(self.n)
        max_hands = cfg.max_hands if cfg.max_hands is not None else 200
        reason = "hands_done"
        hand_no = 0
        while hand_no < max_hands:
            hand_no += 1
            result = (self.hand_class or _Hand)(self, hand_no, dealer).play()
            self.stats.hands += 1
            if not charged:
                charged = True
                self.charge_fee()
            # the next dealer, as the family rotates the deal
            if family.table.rotation is not None:  # rotation with dealer levels (连庄)
                first = (list(result.winners), result.how_won, result.from_seat) if result.winners else None
                dealer, self.level = family.table.rotation(rules, self.table, first, self.n)
                if dealer is None:  # not fixed by the rules (seats re-drawn): the room names one
                    dealer = self.rng.randrange(self.n)
                self.level = self.level or 1
            elif family.table.dealer_after is not None:  # rotation that reads the room's options
                first = (list(result.winners), result.how_won, result.from_seat) if result.winners else None
                more = {"table": self.table, "book": None} if family.table.dealer_reads_table else {}
                dealer = family.table.dealer_after(rules, dealer, first, self.n, **more)
            else:
                dealer = family.table.next_dealer(dealer, list(result.winners), result.how_won, result.from_seat)
            if family.settlement.game_over(rules, self.table.scores):
                reason = "knocked_out"
                break
        self.emit(ev.GameClosed, reason=reason, scores=list(self.table.scores))
        self.stats.games += 1
        return self.b.events

    def charge_fee(self) -> None:
        """Billing: the family's events due when the first hand is settled (a 4-seat room
        turned into a 3-seat room opened with four seats)."""
        cfg = self.cfg
        for fe in self.family.billing.fees_at_first_settlement(cfg.billing, self.creator, cfg.fee, 4, self.n):
            if fe.kind == "charged":
                self.emit(ev.FeeCharged, seat=fe.seat, amount=fe.amount)
            else:
                self.emit(ev.FeeRefunded, seat=fe.seat, amount=fe.amount)


# ---------------------------------------------------------------------------
# one hand


#: Probes for the family's own rules on a move (only the event type and seat matter).
_PROBE_PONG = ev.Ponged(game="", seq=0, at=datetime.fromtimestamp(0, timezone.utc), seat=0, from_seat=1,
                        tile="1m", tiles=["1m", "1m"])
_PROBE_KONG = ev.KongConcealed(game="", seq=0, at=datetime.fromtimestamp(0, timezone.utc), seat=0, kind="1m",
                               tiles=["1m"] * 4)


def _always_legal(seat: int, tile: int, kong_discard: bool) -> bool:
    """The pass book's win judge: the simulator records only win chances the family
    scored as legal, so every recorded chance counts."""
    return True


#: per number of seats, per discarder: the other seats from the discarder's next
_ORDERS = {n: tuple(tuple((d + k) % n for k in range(1, n)) for d in range(n)) for n in (2, 3, 4)}


class _Rulings:
    """The family's answers about one hand's seats on the live table, for the table
    driver and the bots: the exhaustive-draw count, wins and waits (each seat's wait
    entry kept until its hand changes), kong options, the pass book's bar."""

    def __init__(self, game: "_Game", book: PassBook):
        self.family = game.family
        self.rules = game.rules
        self.table = game.table  # the live table (read only)
        self.book = book
        self.wild = game.wild
        #: per seat: (its hand's signature, the family's wait entry for it), kept until
        #: that seat's hand changes (see :meth:`wait_entry`)
        self.waits: list[Optional[tuple[tuple, Any]]] = [None] * game.n
        #: per seat: its kept entry is known to be for its hand as it stands (checked
        #: once since its own turn began; a seat's hand changes only in its own turn)
        self.fresh = [False] * game.n

    def remaining(self) -> int:
        """Tiles that count as remaining for the exhaustive draw (the family's count)."""
        table = self.table
        return self.family.table.remaining(self.rules, table.undrawn, len(table.tail))

    def reserve(self) -> int:
        """The family's exhaustive-draw reserve for the kongs declared so far."""
        return self.family.table.reserve(self.rules, sum(self.table.kongs))

    def context(self, seat: int, how: str, tile: int, after_kong: bool = False, kong_discard: bool = False,
                 winners: int = 1, after_flower: bool = False) -> WinContext:
        """The win context the family scores with (its own, e.g. winds and 天/地/人和, where it has one);
        ``after_flower``: a self-draw of a flower's replacement (花上开花)."""
        make = self.family.wins.win_context
        if make is not None:
            got = make(self.rules, self.table, seat, how, tile, after_kong, kong_discard, winners)
            return replace(got, after_flower=True) if after_flower else got
        return WinContext(how, tile, after_kong=after_kong, kong_discard=kong_discard, after_flower=after_flower)

    def may_win_on(self, seat: int, tile: int, how: str = "discard") -> bool:
        """No pass rule (过胡) bars ``seat`` from winning on ``tile`` from another seat (``how``:
        a discard, or ``robbed_kong``)."""
        return self.family.claims.pass_violation(self.book, seat, "win", tile, _always_legal, rules=self.rules,
                                                 how=how) is None

    def self_draw_win(self, seat: int, tile: int, after_kong: bool, after_flower: bool = False) -> Optional[Score]:
        """自摸 on the tile just drawn (杠上开花 when it came from the tail after a kong, 花上开花
        after a flower set aside)."""
        family, rules, table = self.family, self.rules, self.table
        counts, melds = table.hands[seat], table.melds[seat]
        if not self.drawn_may_complete(seat, tile):
            return None
        within = family.wins.drawn_within_waits
        kept = None
        if tile not in self.wild and within is not None and within(rules, counts):
            kept = kept_before_draw(self.waits, table, seat, tile)
        if kept is not None and kept[1]:
            # the family vouches for its exact test on the entry kept for the hand before
            # the draw: a plain tile drawn completes it as from another seat
            before = list(counts)
            before[tile] -= 1
            if not family.wins.completes(rules, kept[1], before, melds, tile):
                return None
        else:
            # cheap superset first: the hand without its melds' max-four headroom
            if not family.wins.is_winning(rules, counts, ()):
                return None
            if melds and not family.wins.is_winning(rules, counts, melds):
                return None
        sc = family.scoring.score(rules, tiles_of(counts), melds,
                                  self.context(seat, "self_draw", tile, after_kong=after_kong, after_flower=after_flower))
        return sc if sc.wins else None

    def drawn_may_complete(self, seat: int, tile: int) -> bool:
        """False when the seat's hand before it drew ``tile`` had no wait (the family's
        wait entry kept for that hand says no tile completes it) and that entry decides
        the draw (:meth:`entry_decides_draw`).  True: ask the family in full."""
        got = kept_before_draw(self.waits, self.table, seat, tile)
        if got is None or got[1]:
            return True
        return not self.entry_decides_draw(self.table.hands[seat])

    def entry_decides_draw(self, counts: Sequence[int]) -> bool:
        """Whether a hand ``counts`` (a tile just drawn included) can be complete only where
        the wait entry of the hand before the draw allows one: a hand holding no wild
        kind, or one whose family vouches for that entry (``drawn_within_waits``).  The
        family judges a hand by its tiles, and only a wild kind counts differently drawn
        than taken from another seat (a discarded chicken stays plain; the chicken
        rules, e.g. 四小鸡), so a hand without wilds that no other seat's tile completes
        is not completed by drawing one either."""
        for k in self.wild:
            if counts[k]:
                within = self.family.wins.drawn_within_waits
                return within is not None and within(self.rules, counts)
        return True

    def wait_entry(self, seat: int) -> Any:
        """The family's wait entry for the seat's hand (``seat_waits``: False when no tile
        can complete it), kept until that seat's hand changes (:mod:`.kept_waits`)."""
        return kept_wait_entry(self.waits, self.family.wins.seat_waits, self.rules, self.table, seat)

    def completes(self, seat: int, tile: int) -> bool:
        """The family's exact test: ``tile`` from another seat completes the seat's hand."""
        entry = self.wait_entry(seat)
        if not entry:
            return False
        table = self.table
        return self.family.wins.completes(self.rules, entry, table.hands[seat], table.melds[seat], tile)

    def win_from(self, seat: int, tile: int, how: str, kong_discard: bool = False) -> Optional[Score]:
        """A legal win on ``tile`` taken from another seat (a discard or a robbed kong's
        tile), pass rules aside: one tile from complete, complete with it, enough fan.
        ``how``: ``discard`` or ``robbed_kong``; the family's win context and score are
        built only for a tile that completes the hand."""
        if not self.completes(seat, tile):
            return None
        table = self.table
        ctx = self.context(seat, how, tile, kong_discard=kong_discard)
        sc = self.family.scoring.score(self.rules, tiles_of(table.hands[seat]) + [tile], table.melds[seat], ctx)
        return sc if sc.wins else None

    def discard_win(self, seat: int, tile: int, kong_discard: bool) -> Optional[Score]:
        """点炮: a legal win on another seat's discard (pass rules aside)."""
        return self.win_from(seat, tile, "discard", kong_discard)

    def would_win_with(self, seat: int, tile: int) -> bool:
        """Whether drawing ``tile`` completes the seat's hand (for choosing the tail tile);
        asked in full only when the seat's wait entry allows it or does not decide."""
        counts = list(self.table.hands[seat])
        counts[tile] += 1
        if self.entry_decides_draw(counts) and not self.wait_entry(seat):
            return False
        return self.family.wins.is_winning(self.rules, counts, self.table.melds[seat])

    def own_kongs(self, view: "SeatView") -> list[tuple[int, list[int], bool]]:
        """Kongs from the hand as the family offers them: (kind, tiles from hand, added?)."""
        out: list[tuple[int, list[int], bool]] = []
        family, rules = self.family, self.rules
        # cheap pre-checks: a concealed kong needs a kind that reaches four with every
        # chicken; an added kong needs one of the seat's own pongs
        if max(view.nat) + view.wilds >= 4 or max(view.counts) >= 4:
            for k, tiles in family.claims.concealed_kong_options(rules, view.counts):
                out.append((k, list(tiles), False))
        if any(m.kind == "pong" for m in view.melds):
            for k, tile in family.claims.added_kong_options(rules, view.counts, view.melds):
                out.append((k, [tile], True))
        return out


class _Hand:
    def __init__(self, game: _Game, number: int, dealer: int):
        self.g = game
        self.rules = game.rules
        self.family = game.family
        self.rng = game.rng
        self.n = game.n
        self.wild = game.wild
        self.number = number
        self.dealer = dealer
        self.table = game.table  # the live table (read only)
        #: the passing restrictions: what each seat let go since its own last draw or claim
        self.book = PassBook(self.n, self.family.claims.tile_passes)
        self.flavour = [_pick_flavour(self) for _ in range(self.n)]
        self.pool = self.family.table.tail_pool(self.rules)
        #: the game's writer (one call less per event)
        self.emit = game.emit
        #: the family's answers about the seats (wins, waits, kong options)
        self.ask = _Rulings(game, self.book)
        family = self.family
        #: the family's rules :func:`claim_offers` asks on every discard (with the kept wait
        #: entries and the anomaly's illegal claimer)
        self.claim_rules = (family.own.event_checks, family.wins.completes, family.claims.exposed_kong_options,
                            family.claims.could_pong, family.claims.chow_options, family.wins.seat_waits,
                            self.ask.waits, self.ask.fresh, game.cfg.illegal_claimer)
        #: the family's exhaustive-draw reserve by the number of kongs declared (asked once each)
        self.reserves: dict[int, int] = {}
        #: the family's word on a discard (``discard_rule``; by default from ``wild_discard``) and
        #: whether the discard just made is dead
        from audits.rules.wilds import default_discard_rule
        self.discard_rule = family.table.discard_rule or (
            default_discard_rule if self.rules.wild_discard != "plain" else None)
        self.dead = False
        #: the shared ground's reveal and end-of-wall moves, as the family's data names them
        #: (new-families.md §1): seats whose hands a 开杠 locked (they discard what they draw and
        #: claim only wins), the tile a seat must throw (the 海底 taker's), the kong-mode rule
        data = family.data
        self.locked: set[int] = set()
        self.forced: dict[int, int] = {}
        self.may_reveal = data.get("may_reveal")
        self.sea_offer = bool(data.get("sea_offer"))
        #: the exposed kong just claimed is declared in mode ``reveal``
        self.revealing = False
        #: whether a revealed tile nobody won on may be claimed as the konger's discard (the
        #: family's ``data["reveal_claims"]``, of the ruleset), and the reveal left open to it:
        #: (konger, tiles)
        self.reveal_claims = data.get("reveal_claims")
        self.reveal_left: Optional[tuple[int, list[int]]] = None


    # -- play ------------------------------------------------------------------

    def play(self) -> "HandResult":
        g, n, rng = self.g, self.n, self.rng
        wall = shuffled_wall(self)
        self.wall = wall
        level = {"dealer_level": g.level} if g.family.table.rotation is not None else {}
        e_started = self.emit(ev.HandStarted, hand=self.number, dealer=self.dealer,
                              wall=[TILE_NAMES[t] for t in wall] if g.cfg.include_wall else None, dice=None, **level)
        # side bets (养猪, 下嘴): each player bets once before the deal, one of the bets the
        # family allows in this room (the bot bets nothing half the time); none where it allows none
        bets = [x for x in (0, 0, 1, 2) if self.family.settlement.check_bet(self.rules, x, False, False) is None]
        checks = self.family.own.event_checks
        if bets and checks is not None and checks(self.rules, self.table, ev.PigBetPlaced(
                g.game_id, 0, e_started.at, seat=0, bet=bets[0])):
            bets = []  # the family allows no bet in this hand (Wenzhou 买底: a dealership's first hand only)
        if bets:
            for s in range(n):
                self.emit(ev.PigBetPlaced, seat=s, bet=rng.choice(bets))
        hands: list[list[str]] = [[] for _ in range(n)]
        # the dealer takes hand_size + 1 tiles (14), the others hand_size (13) each
        size = self.rules.hand_size
        hands[self.dealer] = [TILE_NAMES[t] for t in sorted(wall[0:size + 1])]
        pos = size + 1
        for k in range(1, n):
            s = (self.dealer + k) % n
            hands[s] = [TILE_NAMES[t] for t in sorted(wall[pos:pos + size])]
            pos += size
        self.head = pos
        #: the wall's last undrawn position (the tail end: turned tail tiles, replacements)
        self.tail_end = len(wall) - 1
        self.emit(ev.TilesDealt, hands=hands)
        if self.rules.wild_from != "preset":
            self._turn_indicator()
        self._opening_wins()
        self.tail_next = self.tail_end - self.pool
        for seat in range(n):
            # a seat dealt many winds (wilds help) plays for the wind hands
            winds = sum(1 for name in hands[seat] if TILE_INDEX[name] in WINDS or TILE_INDEX[name] in self.wild)
            if winds >= 6:
                self.flavour[seat] = "winds"
        if self.pool:
            self.emit(ev.TailTurned, tiles=[TILE_NAMES[wall[self.tail_end - k]] for k in range(self.pool)])
        if self.family.data.get("opening_set_aside"):
            self._opening_set_aside()
        try:
            self._loop()
        except _HandOver as over:
            return over.args[0]
        raise AssertionError("hand loop ended without a result")  # pragma: no cover

    def _turn_indicator(self) -> None:
        """翻牌 (``wild_from``): the indicator is turned from the wall's head or tail end
        (``indicator_from``), and the hand is played with the family's wild of it
        (:func:`audits.rules.wilds.hand_rules`), by the table driver and the bots alike."""
        room = self.rules
        if room.indicator_from == "tail":
            tile, source = self.wall[self.tail_end], "tail"
            self.tail_end -= 1
        else:
            tile, source = self.wall[self.head], "wall"
            self.head += 1
        wild = (self.family.table.wild_of or default_wild_of)(room, tile)
        self.emit(ev.IndicatorTurned, tile=TILE_NAMES[tile], wild=TILE_NAMES[wild], source=source)
        self.rules = self.ask.rules = hand_rules(room, TILE_NAMES[wild])
        self.wild = self.ask.wild = self.family.table.wild_kinds(self.rules)

    def _opening_wins(self) -> None:
        """起手胡 (``OpeningWinDeclared``): each seat, from the dealer, declares the opening wins
        its dealt tiles hold, as the family's ``data["opening_wins"]`` (ruleset, counts) ->
        (names, tiles shown) finds them; the bot forgoes one now and then (no finding)."""
        find = self.family.data.get("opening_wins")
        if find is None:
            return
        for k in range(self.n):
            seat = (self.dealer + k) % self.n
            got = find(self.rules, self.table.hands[seat])
            if got is not None and self.rng.random() < 0.9:
                names, shown = got
                self.emit(ev.OpeningWinDeclared, seat=seat, names=list(names), tiles=[TILE_NAMES[t] for t in shown])
                for name in names:
                    self.g.stats.bump(self.g.stats.fans, name)

    def _kong_mode(self, seat: int, kind: int, from_hand: int) -> Optional[str]:
        """The kong's mode where the family reveals tiles after a kong (开杠): ``reveal`` when the
        family's ``may_reveal`` (ruleset, counts after, melds after) allows it, enough tiles
        are left for its ``reveal_count``, and the bot chooses it; ``replace`` otherwise.
        None: the family has no modes (the event carries none)."""
        if self.may_reveal is None:
            return None
        table = self.table
        count = self.family.data["reveal_count"](self.rules)
        if self.tail_next - self.head + 1 < count or self.rng.random() < 0.3:
            return "replace"
        counts = list(table.hands[seat])
        counts[kind] -= from_hand
        # an added kong's pong already stands for its set
        melds = list(table.melds[seat]) + ([Meld("kong_exposed", kind, (kind,) * 4)] if from_hand != 1 else [])
        return "reveal" if self.may_reveal(self.rules, counts, melds) else "replace"

    def _reveal(self, seat: int) -> None:
        """开杠: the family's ``reveal_count`` tiles turned from the wall's head for ``seat``'s kong;
        the konger wins on one first (its best, a self-draw), else every other seat that can win
        on one (its best tile, a win on the konger's discard; 截和 under ``multi_win`` off), one
        ``HandWon`` per tile.  Nobody winning: the tiles become the konger's discards, its hand is
        locked from now on, and its 下家 draws next (the caller's part)."""
        family, rules, table, n = self.family, self.rules, self.table, self.n
        count = min(family.data["reveal_count"](rules), self.tail_next - self.head + 1)
        tiles = self.wall[self.head:self.head + count]
        self.head += count
        self.emit(ev.KongRevealed, seat=seat, tiles=[TILE_NAMES[t] for t in tiles], source="wall")
        self.locked.add(seat)
        self.g.stats.bump(self.g.stats.claims, "kong_reveal")
        best: Optional[tuple[int, Score]] = None
        for t in tiles:
            counts = list(table.hands[seat])
            counts[t] += 1
            if family.wins.is_winning(rules, counts, table.melds[seat]):
                sc = family.scoring.score(rules, tiles_of(table.hands[seat]) + [t], table.melds[seat],
                                          self.ask.context(seat, "self_draw", t))
                if sc.wins and (best is None or sc.points > best[1].points):
                    best = (t, sc)
        if best is not None:
            self._win([(seat, best[1])], "self_draw", best[0], None)
        takers: dict[int, tuple[int, Score]] = {}
        for k in range(1, n):
            s = (seat + k) % n
            for t in tiles:
                sc = self.ask.win_from(s, t, "discard")
                if sc is not None and self.ask.may_win_on(s, t) and (s not in takers or sc.points > takers[s][1].points):
                    takers[s] = (t, sc)
        if not takers:
            self.g.stats.bump(self.g.stats.claims, "kong_reveal_failed")
            self.reveal_left = (seat, list(tiles))
            return
        order = [s for s in ((seat + k) % n for k in range(1, n)) if s in takers]
        if not rules.multi_win:
            order = order[:1]
        self._win_on_reveal(seat, tiles, [(s, takers[s][0], takers[s][1]) for s in order])

    def _claim_reveal(self) -> Optional[tuple[int, str]]:
        """The tiles of the 开杠 just revealed, won by nobody, offered as the konger's discards
        where the family lets them be claimed (``reveal_claims``): the first tile some seat
        takes (pong, kong, or chow by the konger's 下家, as on a discard) is taken; the others
        stay dead.  Returns (seat, claim) executed, or None."""
        left, self.reveal_left = self.reveal_left, None
        if left is None or self.reveal_claims is None or not self.reveal_claims(self.rules):
            return None
        seat, tiles = left
        for t in dict.fromkeys(tiles):
            claim = self._claims(seat, t, False)
            if claim is not None:
                self.g.stats.bump(self.g.stats.claims, "kong_reveal_claimed")
                return claim
        return None

    def _win_on_reveal(self, seat: int, tiles: Sequence[int], wins: list[tuple[int, int, Score]]) -> None:
        """The wins of other seats on the tiles ``seat`` revealed: one ``HandWon`` per tile (tile
        order), the birds for the whole moment, the settlement (each winner paid by the konger)."""
        stats = self.g.stats
        merged: list[ev.Winner] = []
        last = None
        for t in dict.fromkeys(tiles):
            ws = [ev.Winner(seat=s, fans=list(sc.fans), fan=sc.fan, points=sc.points) for s, tt, sc in wins if tt == t]
            if ws:
                last = self.emit(ev.HandWon, winners=ws, how="discard", tile=TILE_NAMES[t], from_seat=seat)
                merged.extend(ws)
        for _s, _t, sc in wins:
            for f in sc.fans:
                stats.bump(stats.fans, f)
        stats.bump(stats.claims, "win_discard")
        self.g.last_won = msgspec.structs.replace(last, winners=merged)
        if self.family.settlement.birds_due is not None:
            self._birds(wins[-1][1])
        result = HandResult(winners=tuple(s for s, _t, _sc in wins), how="discard", from_seat=seat)
        self._settle(result, [(s, sc.points) for s, _t, sc in wins])
        stats.wins += 1
        stats.winners += len(wins)
        self._end(result)

    def _sea_bottom(self, nxt: int) -> int:
        """海底漫游 (the family's ``data["sea_offer"]``): with one undrawn tile left, it is offered
        from the seat due to draw round the table; the first to accept draws it and must throw
        it (unless it wins); nobody accepting ends the hand drawn with the tile undrawn."""
        for k in range(self.n):
            s = (nxt + k) % self.n
            accept = self.rng.random() < 0.75
            self.emit(ev.LastTileOffered, seat=s, accepted=accept)
            if accept:
                self.forced[s] = self.wall[self.head]
                self.g.stats.bump(self.g.stats.claims, "sea_bottom_taken")
                return s
        self.emit(ev.HandDrawn, remaining=1)
        self._end(HandResult(winners=(), how="drawn", from_seat=None))
        raise AssertionError("unreachable")  # pragma: no cover

    def _set_aside_flowers(self, seat: int) -> Optional[tuple[int, bool]]:
        """补花: on its own turn a seat sets aside every flower it holds, each replaced at once
        as a kong is (the family's replacement); returns the last replacement drawn (no kong's:
        a win on it is 花上开花), or None when it held no flower."""
        drew = None
        table = self.table
        while table.flowers_held[seat] and self.head <= self.tail_next:
            self.emit(ev.TileSetAside, seat=seat, tile=TILE_NAMES[table.flowers_held[seat][0]])
            drew = (self._replacement(seat)[0], False)
        return drew

    def _opening_set_aside(self) -> None:
        """The opening 补花 of a family that asks for it (``RuleFamily.data["opening_set_aside"]``):
        after the deal, before the dealer's first action, the seats in turn from the dealer set
        their flowers aside, each replaced from the tail — every flower of a seat (a replacement
        flower too) before the next seat (``opening_buhua = by_seat``), or one flower per seat
        per round until none is held (``by_round``)."""
        table, n = self.table, self.n
        order = [(self.dealer + k) % n for k in range(n)]
        if getattr(self.rules, "opening_buhua", "by_seat") != "by_round":
            for seat in order:
                self._set_aside_flowers(seat)
            return
        while any(table.flowers_held[s] for s in order) and self.head <= self.tail_next:
            for seat in order:
                if table.flowers_held[seat] and self.head <= self.tail_next:
                    self.emit(ev.TileSetAside, seat=seat, tile=TILE_NAMES[table.flowers_held[seat][0]])
                    self._replacement(seat)

    def _loop(self) -> None:
        n, family, rules, table, g = self.n, self.family, self.rules, self.table, self.g
        seat = self.dealer
        drew: Optional[tuple[int, bool]] = None  # (tile, from the tail after a kong) of the draw that gave the turn
        after_call = False
        while True:
            t, after_kong = self._turn(seat, drew, after_call)
            # a turn that ended with 开杠 tiles nobody won on has no discard to claim (unless
            # the family lets a revealed tile be claimed as the konger's discard)
            claim = self._claims(seat, t, after_kong) if t is not None else self._claim_reveal()
            claimed = False
            while claim is not None:
                seat, kind = claim
                drew = None
                after_call = True
                if kind != "kong" or not self.revealing:
                    if kind == "kong":
                        drew = self._replacement(seat)
                    claimed = True
                    break
                self._reveal(seat)  # nobody won on the revealed tiles: claimed, or the 下家 draws
                claim = self._claim_reveal()
            if claimed:
                continue
            nxt = (seat + 1) % n
            if family.table.remaining(rules, table.undrawn, len(table.tail)) <= (
                    self.reserves.get(sum(table.kongs)) or self.reserve()):
                # the family's exhaustive draw (黄庄): drawn once the remaining tiles are down to its reserve
                self.emit(ev.HandDrawn, remaining=self.ask.remaining())
                self._end(HandResult(winners=(), how="drawn", from_seat=None))
            if self.sea_offer and self.tail_next - self.head == 0:
                nxt = self._sea_bottom(nxt)
            tile = self.wall[self.head]
            self.head += 1
            if nxt in self.locked:
                self.forced[nxt] = tile  # a locked hand throws what it draws
            self.book.clear(nxt)  # a seat's own draw ends its passes
            g.r.drawn(g.b.add_values(ev.TileDrawn, nxt, TILE_NAMES[tile], "wall"))  # :meth:`_Game.draw`
            seat, drew, after_call = nxt, (tile, False), False

    # -- a seat's turn -----------------------------------------------------------

    def _turn(self, seat: int, drew: Optional[tuple[int, bool]], after_call: bool) -> tuple[int, bool]:
        """Act until the seat discards (or the hand ends); return (discard, right after a kong)."""
        kong_this_turn = drew is not None and drew[1]
        table = self.table
        self.ask.fresh[seat] = False  # the seat's hand changes in its turn (its draw or claim included)
        flower = False
        while True:
            if table.flowers_held[seat]:
                replaced = self._set_aside_flowers(seat)
                if replaced is not None:
                    drew, flower = replaced, True
                if table.flowers_held[seat]:
                    # the wall's last tile was a flower and no tile is left to replace it: the
                    # hand is drawn there (no legal discard: a held flower is never played)
                    self.emit(ev.HandDrawn, remaining=self.ask.remaining())
                    self._end(HandResult(winners=(), how="drawn", from_seat=None))
            if drew is not None:
                win = self.ask.self_draw_win(seat, drew[0], drew[1], flower)
                # a bot holding out still wins when every tile it holds is a wild it may not discard
                if win is not None and (not holds_out(self, seat, win) or (
                        self.rules.wild_discard == "forbidden"
                        and _only_wilds_left(self.wild, table.hands[seat], ()))):
                    self._win([(seat, win)], "self_draw", drew[0], None)
            forced = self.forced.pop(seat, None)
            if forced is not None:
                # the 海底 taker, or a hand locked by its 开杠: it throws the tile it drew
                g = self.g
                g.r.discarded(g.b.add_values(ev.TileDiscarded, seat, TILE_NAMES[forced]))
                return forced, kong_this_turn
            view = SeatView(self.wild, table.hands[seat], table.melds[seat], table.keys[seat])
            kong = choose_kong(self, seat, view)
            if kong is not None:
                kind, own, added = kong
                self.book.clear(seat)  # a seat's own kong ends its passes
                mode = self._kong_mode(seat, kind, 1 if added else 4)
                more = {"mode": mode} if mode == "reveal" else {}
                if added:
                    self.emit(ev.KongAdded, seat=seat, kind=TILE_NAMES[kind], tile=TILE_NAMES[own[0]], **more)
                    self._robbing(seat, own[0])
                else:
                    self.emit(ev.KongConcealed, seat=seat, kind=TILE_NAMES[kind],
                              tiles=[TILE_NAMES[x] for x in own], **more)
                if mode == "reveal":
                    self.g.stats.bump(self.g.stats.claims, "kong_added" if added else "kong_concealed")
                    self._reveal(seat)
                    return None, True
                self.g.stats.bump(self.g.stats.claims, "kong_added" if added else "kong_concealed")
                if after_call:
                    self.g.stats.bump(self.g.stats.claims, "kong_after_call")
                drew = self._replacement(seat)
                kong_this_turn = True
                flower = False
                continue
            t = choose_discard(self, seat, view)
            if self.discard_rule is not None:
                t = self._judged_discard(seat, t)
            g = self.g
            g.r.discarded(g.b.add_values(ev.TileDiscarded, seat, TILE_NAMES[t]))  # :meth:`_Game.discard`
            return t, kong_this_turn

    def _judged_discard(self, seat: int, t: int) -> int:
        """The family's word on the bot's discard (``discard_rule``): a tile it forbids is kept
        (the bot discards another, where it holds one), and a dead discard is offered to nobody."""
        rule, rules, table = self.discard_rule, self.rules, self.table
        verdict = rule(rules, table, seat, t)
        if verdict.violation is not None:
            for k in range(NUM_KINDS):
                if table.hands[seat][k] and k != t:
                    other = rule(rules, table, seat, k)
                    if other.violation is None:
                        t, verdict = k, other
                        break
        self.dead = verdict.dead
        return t

    def _replacement(self, seat: int) -> tuple[int, bool]:
        """After a kong: take one face-up tail tile (one that wins if any) and turn the next
        one; a family without a tail pool replaces from the wall."""
        table = self.table
        if not self.pool:
            source = self.family.table.replacement_source(self.rules) if self.family.table.replacement_source else "wall"
            if source == "tail" and self.rules.kong_replacement == "tail":
                # the wall's last undrawn tile (Guangdong), logged as a tail draw
                tile = self.wall[self.tail_next]
                self.tail_next -= 1
            else:
                tile = self.wall[self.head]
                self.head += 1
            self.emit(ev.TileDrawn, seat=seat, tile=TILE_NAMES[tile], source=source)
            return tile, True
        tail = list(table.tail)
        choice = next((t for t in tail if self.ask.would_win_with(seat, t)), None)
        if choice is None:
            choice = tail[0] if len(tail) == 1 or self.rng.random() < 0.5 else tail[1]
        self.emit(ev.TileDrawn, seat=seat, tile=TILE_NAMES[choice], source="tail")
        if self.tail_next >= self.head:
            self.emit(ev.TailTurned, tiles=[TILE_NAMES[self.wall[self.tail_next]]])
            self.tail_next -= 1
        return choice, True

    def reserve(self) -> int:
        """The family's exhaustive-draw reserve for the kongs declared so far."""
        kongs = sum(self.table.kongs)
        got = self.reserves.get(kongs)
        if got is None:
            got = self.reserves[kongs] = self.family.table.reserve(self.rules, kongs)
        return got

    def can_kong_now(self) -> bool:
        # The family's rule: a kong is allowed while the remaining tiles are at least the
        # reserve.  Physically it also needs a replacement tile (a face-up tail tile, and
        # a wall tile to turn up after it).  (All three are asked; the cheapest first.)
        if not self.pool:
            if self.head > self.tail_next:
                return False
        elif not self.table.tail or self.tail_next < self.head:
            return False
        family, rules, table = self.family, self.rules, self.table
        if family.table.remaining(rules, table.undrawn, len(table.tail)) < (
                self.reserves.get(sum(table.kongs)) or self.reserve()):
            return False
        # the family's own rules on a kong now (Guangdong: none without a drawable tile)
        checks = family.own.event_checks
        return checks is None or not checks(rules, table, _PROBE_KONG)

    # -- wins, as the family scores them ------------------------------------------

    # -- claims on a discard -------------------------------------------------------

    def _claims(self, d: int, t: int, after_kong: bool) -> Optional[tuple[int, str]]:
        """Offer the discard to the other seats; return (seat, claim) executed, or None.

        What each seat may claim, the claim ranks and the passing restrictions are the
        family's; a claim the pass book bars is never offered, and every legal claim
        a seat lets go is recorded in the book.
        """
        if self.dead:
            self.dead = False
            return None  # a dead discard (the family's discard_rule): nobody claims or wins on it
        order = _ORDERS[self.n][d]
        self._kong_discard = after_kong  # for rescoring several winners (一炮三响)
        offers, could = claim_offers(self, order, d, t, after_kong)
        for s in self.locked:
            # a hand locked by its 开杠 claims only wins
            if s in offers:
                offers[s] = {c: v for c, v in offers[s].items() if c == "win"}
                if not offers[s]:
                    del offers[s]
            if s in could:
                could[s] = [c for c in could[s] if c == "win"]
        self.revealing = False
        if not offers and not could:
            return None  # nobody could claim the discard: nothing to decide, log or book
        rng, family, rules, book = self.rng, self.family, self.rules, self.book
        stats, rank = self.g.stats, family.claims.claim_rank
        decided = decide_claims(self, offers, d, t)
        # The family's highest-ranked claim takes the discard: every seat that declared it
        # when it is a win (一炮多响), else the first such seat from the discarder's next.
        best = max(decided.values(), key=rank.__getitem__, default=None)
        winners = [s for s in order if decided.get(s) == "win"] if best == "win" else []
        if not rules.multi_win:
            winners = winners[:1]  # 截和: only the first in turn order from the discarder's next wins
        top: Optional[tuple[int, str]] = None
        if best is not None and best != "win":
            top = next((s, best) for s in order if decided.get(s) == best)
        # Log each offered seat's answer, in seat order from the discarder's next.
        for s in order:
            o = offers.get(s)
            if o is not None:
                c = decided.get(s)
                if c is None:
                    self.g.emit_values(ev.ClaimPassed, s, sorted(o, key=rank.__getitem__, reverse=True))
                else:
                    self.g.emit_values(ev.ClaimDeclared, s, c)
            # the pass book: every claim the seat could make and did not make
            taken = decided.get(s)
            if top is not None and top[0] != s:
                taken = None
            for c in could.get(s, ()):
                if c != taken:
                    if c == "win" and "win" in (o or {}) and not winners:
                        stats.bump(stats.claims, "win_declined")
                    book.let_go(s, c, t, after_kong)
        if winners:
            self._win([(s, offers[s]["win"]) for s in winners], "discard", t, d)
        if top is None:
            return None
        s, claim = top
        book.clear(s)  # a seat's own claim ends its passes
        stats.bump(stats.claims, claim)
        if claim == "kong":
            own = offers[s]["kong"]
            mode = self._kong_mode(s, t, 3)
            self.revealing = mode == "reveal"
            self.emit(ev.KongExposed, seat=s, from_seat=d, kind=TILE_NAMES[t], tile=TILE_NAMES[t],
                      tiles=[TILE_NAMES[x] for x in own], **({"mode": mode} if self.revealing else {}))
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

    def _robbing(self, adder: int, tile: int) -> None:
        """抢杠: right after the added kong, seats that can win on the added tile may rob it.
        A seat the pass book bars (过胡) may not; a seat that lets a rob go is recorded."""
        if not self.family.claims.can_rob("kong_added"):
            return
        robbers = []
        for k in range(1, self.n):
            s = (adder + k) % self.n
            win = self.ask.win_from(s, tile, "robbed_kong")
            if win is None or not self.ask.may_win_on(s, tile, "robbed_kong"):
                continue
            if self.rng.random() < 0.9:
                robbers.append((s, win))
            else:
                self.emit(ev.ClaimPassed, seat=s, claims=["win"])
                self.book.let_rob_go(s, tile)
        if robbers:
            for s, _ in robbers:
                self.emit(ev.ClaimDeclared, seat=s, claim="win")
            if not self.rules.multi_win:
                robbers = robbers[:1]  # a single winner: the first declarer from the adder's 下家 (截和)
            self._win(robbers, "robbed_kong", tile, adder)

    # -- the end of a hand ---------------------------------------------------------

    def _win(self, winners: list[tuple[int, Score]], how: str, tile: int, from_seat: Optional[int]) -> None:
        stats = self.g.stats
        if how == "discard" and len(winners) > 1:
            stats.bump(stats.claims, "multi_win")
        stats.bump(stats.claims, f"win_{how}")
        if how == "discard" and len(winners) > 1 and self.family.wins.win_context is not None:
            # the family may score a winner by how many won (一炮三响)
            winners = [(s, self.family.scoring.score(self.rules, tiles_of(self.table.hands[s]) + [tile], self.table.melds[s],
                                                     self.ask.context(s, how, tile, kong_discard=self._kong_discard,
                                                                   winners=len(winners)))) for s, _ in winners]
        ws = []
        for s, sc in winners:
            for f in sc.fans:
                stats.bump(stats.fans, f)
            if not sc.fans:
                stats.bump(stats.fans, "(none)")
            ws.append(ev.Winner(seat=s, fans=list(sc.fans), fan=sc.fan, points=sc.points))
        self.g.last_won = self.emit(ev.HandWon, winners=ws, how=how, tile=TILE_NAMES[tile], from_seat=from_seat)
        if self.family.settlement.birds_due is not None:
            self._birds(tile)
        result = HandResult(winners=tuple(s for s, _ in winners), how=how, from_seat=from_seat)
        self._settle(result, [(s, sc.points) for s, sc in winners])
        stats.wins += 1
        stats.winners += len(winners)
        self._end(result)

    def _birds(self, tile: int) -> None:
        """抓鸟: the birds the family's rules give after the win (``birds_due``), from the wall's
        head or tail end, or the last tile repeated when the wall is empty."""
        due = self.family.settlement.birds_due(self.rules, self.table, self.g.last_won)
        if not due:
            return
        count, source, origin = due
        left = self.tail_next - self.head + 1
        if source == "last" or left < count:
            tiles, source = [tile] * count, "last"
        elif source == "tail":
            tiles = [self.wall[self.tail_next - k] for k in range(count)]
            self.tail_next -= count
        else:
            tiles = self.wall[self.head:self.head + count]
            self.head += count
        self.emit(ev.BirdsDrawn, tiles=[TILE_NAMES[t] for t in tiles], origin=origin, source=source)

    def _settle(self, result: "HandResult", winners: list[tuple[int, int]]) -> None:
        transfers, scores = settle_hand(self.g, result, winners, self.rules)
        self.emit(ev.HandSettled, transfers=transfers, scores=scores)

    def _end(self, result: "HandResult") -> None:
        if result.how == "drawn":
            self.g.stats.draws += 1
            self._settle(result, [])
        raise _HandOver(result)


# ---------------------------------------------------------------------------
# the wall: shuffled, biased or seeded with a rare hand (simulation knobs, not rules)


def seat_players(cfg: SimConfig, rng: random.Random) -> list[str]:
    """The four player ids of a room, drawn from a pool of 21 (``P04``..``P24``); the anomaly
    knobs' seats always carry the same players (``P01``/``P02`` the colluding pair, ``P03``
    the illegal claimer), so the anomaly checks can find them across rooms.  Every family's
    simulator seats its players here."""
    pool = [f"P{i:02d}" for i in range(4, 25)]
    rng.shuffle(pool)
    seats = pool[:4]
    if cfg.colluding_pair is not None:
        a, b = cfg.colluding_pair
        seats[a], seats[b] = "P01", "P02"
    if cfg.illegal_claimer is not None:
        seats[cfg.illegal_claimer] = "P03"
    return seats


def bias_wall(wall: list[int], seats: int, rng: random.Random, keep: int = 30, hand_size: int = 13) -> None:
    """The ``biased_shuffle`` knob: after the deal, the next 24 wall tiles are swapped toward
    low suited tiles (1–3 of a suit) from deeper in the wall (never the last ``keep``), 60 % of
    the time each, so the first draws skew low (a server's bad shuffle, for the shuffle check)."""
    dealt = hand_size + 1 + hand_size * (seats - 1)
    lo, hi = dealt, dealt + 24
    low = [j for j in range(hi, len(wall) - keep) if wall[j] < 27 and wall[j] % 9 <= 2]
    for i in range(lo, hi):
        if low and rng.random() < 0.6 and not (wall[i] < 27 and wall[i] % 9 <= 2):
            j = low.pop(rng.randrange(len(low)))
            wall[i], wall[j] = wall[j], wall[i]


def shuffled_wall(hand: "_Hand") -> list[int]:
    wall = full_set(hand.rules.tile_count)  # 136 tiles; 144 with the flowers (the family's set)
    hand.rng.shuffle(wall)
    if hand.g.cfg.biased_shuffle:
        bias_wall(wall, hand.n, hand.rng, hand_size=hand.rules.hand_size)
    if hand.g.cfg.rare_hands and hand.rng.random() < hand.g.cfg.rare_hands:
        _seed_rare_hand(hand, wall)
    return wall


def _seed_rare_hand(hand: "_Hand", wall: list[int]) -> None:
    """Swap tiles into one seat's deal: three wind triplets and a wind pair (大四喜
    in reach), or three quads (四杠 in reach); that seat plays for it."""
    rng = hand.rng
    seat = rng.randrange(hand.n)
    k = (seat - hand.dealer) % hand.n
    size = hand.rules.hand_size
    start = 0 if k == 0 else size + 1 + size * (k - 1)
    if rng.random() < 0.5:
        winds = list(WINDS)
        rng.shuffle(winds)
        want = [t for t in winds[:3] for _ in range(3)] + [winds[3]] * 2
        hand.flavour[seat] = "winds"
    else:
        kinds = rng.sample(range(NUM_KINDS), 3)
        want = [t for t in kinds for _ in range(4)]
        hand.flavour[seat] = "kongs"
    for i, t in enumerate(want):
        here = start + i
        j = wall.index(t, here) if t in wall[here:] else wall.index(t)
        wall[here], wall[j] = wall[j], wall[here]


# ---------------------------------------------------------------------------
# the bots' choices among the moves the family allows (strategy, not rules)


def claim_offers(hand: "_Hand", order: Sequence[int], d: int, t: int, after_kong: bool
                 ) -> tuple[dict[int, dict[str, Any]], dict[int, list[str]]]:
    """What each seat (in ``order``) may claim on seat ``d``'s discard ``t``, as the family
    says: ``(offers, could)`` — the claims offered to each seat (a claim the pass book bars
    is never offered; the ``illegal_claimer`` anomaly adds an illegal pong now and then)
    and every claim each seat could make (for the pass book)."""
    rules, table = hand.rules, hand.table
    offers: dict[int, dict[str, Any]] = {}
    could: dict[int, list[str]] = {}  # the seats that could claim something
    kong_ok: Optional[bool] = None  # asked only when a seat could kong
    checks, completes, exposed_kongs, could_pong, chow_options, seat_waits, waits, fresh, illegal = hand.claim_rules
    # the family's own rule on the last discard (Guangdong: only 胡)
    last = checks is not None and bool(checks(rules, table, _PROBE_PONG))
    hands, melds_of, keys_of, kongs_of, held_of = table.hands, table.melds, table.keys, table.kongs, table.held
    for s in order:
        counts = hands[s]
        melds = melds_of[s]
        # the seat's wait entry, kept until its hand changes (as :func:`.kept_waits.kept_wait_entry`)
        got = waits[s]
        if fresh[s]:
            entry = got[1]
        else:
            keys = keys_of[s]
            sig = (keys[0], keys[1], keys[2], keys[3], len(melds), kongs_of[s])
            if got is not None and got[0] == sig:
                entry = got[1]
            else:
                entry = seat_waits(rules, counts, keys, held_of[s], melds)
                waits[s] = (sig, entry)
            fresh[s] = True
        win = None
        if entry and completes(rules, entry, counts, melds, t):
            win = hand.ask.discard_win(s, t, after_kong)
        kongs = exposed_kongs(rules, counts, t)
        pong = could_pong(rules, counts, t)
        chows = chow_options(rules, counts, t, s, d) if not last else []
        if rules.wild_discard == "forbidden" and (pong or chows):
            # a claim after which the seat would hold only wilds it may not discard is not made
            if pong and _only_wilds_left(hand.wild, counts, (t, t)):
                pong = False
            chows = [p for p in chows if not _only_wilds_left(hand.wild, counts, p)]
        if win is None and not kongs and not pong and not chows:
            if illegal == s and hand.rng.random() < 0.5:
                bad = wild_pong_tiles(hand.wild, counts, t)
                if bad is not None:
                    offers[s] = {"pong": bad}
            continue
        o: dict[str, Any] = {}
        c: list[str] = []
        if win is not None:
            c.append("win")
            if hand.family.claims.pass_violation(hand.book, s, "win", t, _always_legal, rules=rules) is None:
                o["win"] = win
        if kongs:
            c.append("kong")
            if kong_ok is None:
                kong_ok = hand.can_kong_now()
            if kong_ok and not last and hand.family.claims.pass_violation(hand.book, s, "kong", t, _always_legal,
                                                                          rules=rules) is None:
                o["kong"] = list(kongs[0])  # natural tiles first
        if pong:
            c.append("pong")
            if not last and hand.family.claims.pass_violation(hand.book, s, "pong", t, _always_legal, rules=rules) is None:
                o["pong"] = [t, t]
        elif illegal == s and hand.rng.random() < 0.5:
            bad = wild_pong_tiles(hand.wild, counts, t)
            if bad is not None:
                o["pong"] = bad
        if chows:
            # a chicken joins a chow only as its plain tile; the bot prefers plain tiles
            plain = [list(p) for p in chows if p[0] not in hand.wild and p[1] not in hand.wild]
            o["chow"] = plain or [list(p) for p in chows]
        if o:
            offers[s] = o
        if c:
            could[s] = c
    return offers, could


def _only_wilds_left(wild: Collection[int], counts: Sequence[int], used: Sequence[int]) -> bool:
    """After a meld made with ``used`` from ``counts``, every tile left is a wild kind."""
    left = list(counts)
    for k in used:
        left[k] -= 1
    return all(not c or k in wild for k, c in enumerate(left))


def decide_claims(hand: "_Hand", offers: dict[int, dict[str, Any]], d: int, t: int) -> dict[int, str]:
    """The bots' answers to the offers on seat ``d``'s discard ``t``: a win is taken unless
    declined; then kong, pong, chow (a claim not answered is passed)."""
    rng, cfg = hand.rng, hand.g.cfg
    colluders = cfg.colluding_pair or ()
    # The bots decide: a win is taken unless declined; then kong, pong, chow.
    decided: dict[int, str] = {}
    for s, o in offers.items():
        if "win" in o:
            if (s in colluders and d in colluders) or (
                    rng.random() >= cfg.decline_win and not holds_out(hand, s, o["win"])):
                decided[s] = "win"
                continue
        eager = hand.flavour[s] == "kongs" or (hand.flavour[s] == "winds" and WINDS[0] <= t <= WINDS[-1])
        if "kong" in o and (eager or rng.random() < (0.75 if o["kong"].count(t) == 3 else 0.3)):
            decided[s] = "kong"
        elif "pong" in o and (eager or rng.random() < (0.95 if s == cfg.illegal_claimer else 0.6)):
            decided[s] = "pong"
        elif "chow" in o and rng.random() < 0.45:
            decided[s] = "chow"
    return decided


def _pick_flavour(hand: "_Hand") -> Optional[str]:
    x = hand.rng.random()
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


def holds_out(hand: "_Hand", seat: int, win: Score) -> bool:
    """A "kongs" or "winds" bot close to 四杠 / 大四喜 lets a smaller win go while
    plenty of wall is left (a legal choice; a passed discard win is 过胡)."""
    if hand.ask.remaining() <= 40 or "sigang" in win.fans or "dasixi" in win.fans:
        return False
    flavour = hand.flavour[seat]
    melds = hand.table.melds[seat]
    if flavour == "kongs":
        return 2 <= sum(1 for m in melds if m.is_kong) < 4
    if flavour == "winds":
        hand = hand.table.hands[seat]
        wind_sets = sum(1 for m in melds if m.kind != "chow" and WINDS[0] <= m.of <= WINDS[-1])
        wind_sets += sum(1 for t in WINDS if hand[t] >= 3)
        return wind_sets >= 2
    return False


def choose_kong(hand: "_Hand", seat: int, view: "SeatView") -> Optional[tuple[int, list[int], bool]]:
    """Natural kongs are declared most of the time; a kong that spends chickens
    (precious) now and then; the bot picks among the family's kong options."""
    if not hand.can_kong_now():
        return None
    rng = hand.rng
    x = rng.random()
    if hand.flavour[seat] == "kongs":
        options = hand.ask.own_kongs(view)
        return rng.choice(options) if options else None
    if x >= 0.85:
        return None
    if x >= 0.2 and not view.natural_kong_possible():
        return None  # only chicken kongs are possible: the bot keeps its chickens this time
    options = hand.ask.own_kongs(view)
    if not options:
        return None
    natural = [o for o in options if all(t == o[0] for t in o[1])]
    if natural and (x < 0.68 or len(natural) == len(options)):
        return rng.choice(natural)
    if x < 0.2:
        return rng.choice(options)
    return None


def choose_discard(hand: "_Hand", seat: int, view: "SeatView") -> int:
    g = hand.g
    cfg = g.cfg
    # A colluder feeds the partner a winning tile when it holds one.
    if cfg.colluding_pair is not None and seat in cfg.colluding_pair:
        a, b = cfg.colluding_pair
        partner = b if seat == a else a
        if partner < hand.n:
            table = hand.table
            for t in hand.family.wins.waits(hand.rules, table.hands[partner], table.melds[partner]):
                if view.counts[t] > 0 and t not in hand.wild and hand.ask.may_win_on(partner, t) \
                        and hand.ask.discard_win(partner, t, False) is not None:
                    return t
    return bot_discard(hand.rng, view, hand.flavour[seat])


# ---------------------------------------------------------------------------
# how a hand ended; the ``illegal_claimer`` anomaly's tiles (the bots themselves: :mod:`.bot`)


class HandResult(msgspec.Struct, frozen=True):
    """How a hand ended: the winners (seat order of payment), how, and the discarder/adder."""

    winners: tuple[int, ...]
    how: str
    from_seat: Optional[int]

    @property
    def how_won(self) -> Optional[str]:
        """``how`` for a won hand, None for a drawn one."""
        return None if self.how == "drawn" else self.how


def wild_pong_tiles(wild: frozenset[int], counts: Sequence[int], t: int) -> Optional[list[int]]:
    """An illegal pong (the ``illegal_claimer`` anomaly): one natural tile and a chicken
    acting as wild."""
    if t in wild or counts[t] != 1:
        return None
    chicken = next((k for k in sorted(wild) if counts[k]), None)
    return None if chicken is None else [t, chicken]


def settle_hand(game: _Game, result: HandResult, winners: list[tuple[int, int]], rules: Optional[Ruleset] = None
                ) -> tuple[list[ev.Transfer], list[int]]:
    """The hand's transfers and scores: the family's settlement of the table's facts
    (bets, 点鸡 tallies), by ``rules`` (the hand's, with its turned wild; the room's by
    default).  The ``dianji_underpay_build`` anomaly then pays every net-compared (点鸡)
    transfer one short."""
    family, table = game.family, game.table
    rules = rules if rules is not None else game.rules
    won = game.last_won if result.how_won else None
    facts = family.settlement.table_facts(rules, table, won) if family.settlement.table_facts is not None else \
        family.settlement.hand_facts(rules, table.received, table.bets)
    settled = family.settlement.settle(rules, list(table.scores), winners, result.how_won, result.from_seat, facts)
    if not game.underpay:
        return settled.transfers, settled.scores
    short = set(family.settlement.net_reasons[0])
    paid: list[ev.Transfer] = []
    scores = list(table.scores)
    for t in settled.transfers:
        if t.reason in short:
            t = msgspec.structs.replace(t, amount=t.amount - 1)
        if t.amount > 0:
            paid.append(t)
            scores[t.payer] -= t.amount
            scores[t.payee] += t.amount
    return paid, scores

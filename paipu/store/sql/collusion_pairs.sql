-- title: pairs where one discards into the other's wins far above the pair baseline (collusion)
-- statistic: per ruleset and ordered pair (discarder D, winner W) who sat at the same table,
--   x = D's discard wins that went to W, out of n = D's discard wins (winner rows) made while W
--   was still in the hand (at the table, and not yet a winner of it: under 血战到底 a winner
--   leaves the hand).  With no collusion each of the c seats still in the hand but D is equally
--   likely, p0 = 1/c (1/(seats − 1) until someone has won; a deal-in to the last seat left is no
--   evidence, p0 = 1); binomial z = (x − Σp0) / sqrt(Σ p0(1 − p0)).  A much stronger winner also
--   raises every discarder's share toward them: read a flagged pair next to W's win_rate.
--   A ruleset is its preset and options (game_rulesets.ruleset); pairs are judged within one.
-- sums: counts per number of seats still in first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: z > $z and x >= $min_count; every such deal-in is returned as evidence.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_count INTEGER = 8: fewest deal-ins from D to W to be judged
WITH deals AS (
    SELECT w.game, w.hand, w.seq, w.from_seat, w.from_player AS d, w.player AS winner, rs.ruleset
    FROM wins w JOIN game_rulesets rs USING (game)
    WHERE w.how = 'discard' AND w.from_player IS NOT NULL AND w.player IS NOT NULL
), candidates AS (
    -- the seats that could have taken D's tile: at the table, not D, and no win of theirs earlier in the hand
    SELECT dl.ruleset, dl.game, dl.hand, dl.seq, dl.d, dl.winner, hp.player AS w
    FROM deals dl JOIN hand_players hp ON hp.game = dl.game AND hp.hand = dl.hand AND hp.seat <> dl.from_seat
    WHERE hp.player IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM wins e WHERE e.game = dl.game AND e.hand = dl.hand AND e.seat = hp.seat
                                             AND e.seq < dl.seq)
), sized AS (
    SELECT *, count(*) OVER (PARTITION BY game, hand, seq, winner) AS c FROM candidates
), pair_in AS (
    SELECT ruleset, d, w, c, count(*) AS n, sum((winner = w)::INTEGER) AS x
    FROM sized GROUP BY ruleset, d, w, c
), pairs AS (
    SELECT ruleset, d, w, sum(n) AS n, sum(x) AS x, sum(n / c) AS e,
           sum(n * (1.0 / c) * (1 - 1.0 / c)) AS v
    FROM pair_in GROUP BY ruleset, d, w
), flagged AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS zscore FROM pairs
    WHERE x >= $min_count AND (x - e) / sqrt(nullif(v, 0)) > $z
)
SELECT dl.game, dl.hand, dl.seq, dl.from_seat AS seat, dl.d AS player,
       format('{} dealt into {}: {} of {} of {}''s deal-ins while {} was in the hand (expected {:.1f}), z = {:.1f}',
              f.d, f.w, f.x, f.n, f.d, f.w, f.e, f.zscore) AS detail,
       'z' AS statistic, f.zscore::DOUBLE AS value, (f.x / f.n)::DOUBLE AS rate, (f.e / f.n)::DOUBLE AS baseline, f.n::BIGINT AS n,
       f.ruleset
FROM flagged f JOIN deals dl ON dl.ruleset = f.ruleset AND dl.d = f.d AND dl.winner = f.w
ORDER BY f.ruleset, f.zscore DESC, dl.game, dl.hand

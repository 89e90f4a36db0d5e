-- title: pairs where one discards into the other's wins far above the pair baseline (collusion)
-- statistic: per ruleset and ordered pair (discarder D, winner W) who sat at the same table,
--   x = D's discard wins that went to W, out of n = all of D's discard wins (winner rows) in
--   games W played.  With no collusion each of the other seats is equally likely, p0 =
--   1/(seats − 1); binomial z = (x − Σp0) / sqrt(Σ p0(1 − p0)).  A much stronger winner also
--   raises every discarder's share toward them: read a flagged pair next to W's win_rate.
--   A ruleset is its preset and options (game_rulesets.ruleset); pairs are judged within one.
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: z > $z and x >= $min_count; every such deal-in is returned as evidence.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_count INTEGER = 8: fewest deal-ins from D to W to be judged
WITH seated AS (
    SELECT DISTINCT game, unnest(players) AS player FROM games
), deals AS (
    SELECT w.game, w.hand, w.seq, w.from_seat, w.from_player AS d, w.player AS winner, h.seats, rs.ruleset
    FROM wins w JOIN hands h USING (game, hand) JOIN game_rulesets rs USING (game)
    WHERE w.how = 'discard' AND w.from_player IS NOT NULL AND w.player IS NOT NULL
), pair_seats AS (
    SELECT dl.ruleset, dl.d, s.player AS w, dl.seats, count(*) AS n, sum((dl.winner = s.player)::INTEGER) AS x
    FROM deals dl JOIN seated s ON s.game = dl.game AND s.player <> dl.d
    GROUP BY dl.ruleset, dl.d, s.player, dl.seats
), pairs AS (
    SELECT ruleset, d, w, sum(n) AS n, sum(x) AS x, sum(n / (seats - 1)) AS e,
           sum(n * (1.0 / (seats - 1)) * (1 - 1.0 / (seats - 1))) AS v
    FROM pair_seats GROUP BY ruleset, d, w
), flagged AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS zscore FROM pairs
    WHERE x >= $min_count AND (x - e) / sqrt(nullif(v, 0)) > $z
)
SELECT dl.game, dl.hand, dl.seq, dl.from_seat AS seat, dl.d AS player,
       format('{} dealt into {}: {} of {} of {}''s deal-ins at tables with {} (expected {:.1f}), z = {:.1f}',
              f.d, f.w, f.x, f.n, f.d, f.w, f.e, f.zscore) AS detail,
       'z' AS statistic, f.zscore::DOUBLE AS value, (f.x / f.n)::DOUBLE AS rate, (f.e / f.n)::DOUBLE AS baseline, f.n::BIGINT AS n,
       f.ruleset
FROM flagged f JOIN deals dl ON dl.ruleset = f.ruleset AND dl.d = f.d AND dl.winner = f.w
ORDER BY f.ruleset, f.zscore DESC, dl.game, dl.hand

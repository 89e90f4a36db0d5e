-- title: player win rate far from the population
-- statistic: per player, x = hands won / settled hands played, against the population
--   baseline p0 = the median of the players' rates (players with 20+ hands; separately for 4-
--   and 3-seat tables; the median, so that one extreme player does not move everyone else's
--   baseline); z-score of a binomial proportion, stratified: z = (x − Σp0) / sqrt(Σ p0(1 − p0))
--   over the player's hands.
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: |z| > $z, for players with at least $min_hands hands.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_hands INTEGER = 100: fewest hands for a player to be judged
WITH hp AS (
    SELECT hp.player, hp.seats, hp.won::INTEGER AS x
    FROM hand_players hp JOIN hands h USING (game, hand)
    WHERE h.result IS NOT NULL AND hp.player IS NOT NULL
), rates AS (
    SELECT seats, player, avg(x) AS r, count(*) AS n FROM hp GROUP BY seats, player
), base AS (
    SELECT seats, coalesce(median(r) FILTER (WHERE n >= 20), sum(r * n) / sum(n)) AS p0
    FROM rates GROUP BY seats
), per_seats AS (
    SELECT player, seats, count(*) AS n, sum(x) AS x FROM hp GROUP BY player, seats
), per AS (
    SELECT player, sum(n) AS n, sum(x) AS x, sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM per_seats JOIN base USING (seats)
    GROUP BY player
), z AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS z FROM per WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, player,
       format('won {} of {} hands ({:.1f}%), baseline {:.1f}% (expected {:.0f}), z = {:.1f}',
              x, n, 100.0 * x / n, 100.0 * e / n, e, z) AS detail,
       'z' AS statistic, z::DOUBLE AS value, (x / n)::DOUBLE AS rate, (e / n)::DOUBLE AS baseline, n::BIGINT AS n
FROM z
WHERE abs(z) > $z
ORDER BY abs(z) DESC, player

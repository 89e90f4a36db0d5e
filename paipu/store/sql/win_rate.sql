-- title: player win rate far from the population
-- statistic: per player, x = hands won / settled hands played, against the population
--   baseline p0 = the median of the players' rates (players with 20+ hands; separately for 4-
--   and 3-seat tables; the median, so that one extreme player does not move everyone else's
--   baseline); z-score of a binomial proportion, stratified: z = (x − Σp0) / sqrt(Σ p0(1 − p0))
--   over the player's hands.
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
), per AS (
    SELECT player, count(*) AS n, sum(x) AS x, sum(p0) AS e, sum(p0 * (1 - p0)) AS v
    FROM hp JOIN base USING (seats)
    GROUP BY player
), z AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS z FROM per WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, player,
       format('won {} of {} hands ({:.1f}%), baseline {:.1f}% (expected {:.0f}), z = {:.1f}',
              x, n, 100.0 * x / n, 100.0 * e / n, e, z) AS detail
FROM z
WHERE abs(z) > $z
ORDER BY abs(z) DESC, player

-- title: exhaustive-draw (黄庄) rate outliers, by server build and by player
-- statistic: x = drawn hands out of n = ended hands, per server build and per player, against
--   the population baseline p0 (pooled, separately for 4- and 3-seat tables); stratified
--   binomial z = (x − Σp0) / sqrt(Σ p0(1 − p0)).
-- threshold: |z| > $z, for groups with at least $min_hands ended hands.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_hands INTEGER = 100: fewest ended hands for a group to be judged
WITH h AS (
    SELECT h.game, h.seats, (h.result = 'drawn')::INTEGER AS x, g.server, g.build
    FROM hands h JOIN games g USING (game)
    WHERE h.result IS NOT NULL
), base AS (
    SELECT seats, avg(x) AS p0 FROM h GROUP BY seats
), by_build AS (
    SELECT 'build' AS kind, server || ' ' || build AS who, count(*) AS n, sum(x) AS x,
           sum(p0) AS e, sum(p0 * (1 - p0)) AS v
    FROM h JOIN base USING (seats) GROUP BY server, build
), per_player AS (
    SELECT 'player' AS kind, hp.player AS who, count(*) AS n, sum((hh.result = 'drawn')::INTEGER) AS x,
           sum(b.p0) AS e, sum(b.p0 * (1 - b.p0)) AS v
    FROM hand_players hp
    JOIN hands hh USING (game, hand)
    JOIN base b ON b.seats = hh.seats
    WHERE hh.result IS NOT NULL AND hp.player IS NOT NULL
    GROUP BY hp.player
), z AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS z
    FROM (SELECT * FROM by_build UNION ALL SELECT * FROM per_player)
    WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,
       CASE WHEN kind = 'player' THEN who END AS player,
       format('{} {}: {} of {} hands drawn ({:.1f}%), population {:.1f}%, z = {:.1f}',
              kind, who, x, n, 100.0 * x / n, 100.0 * e / n, z) AS detail
FROM z
WHERE abs(z) > $z
ORDER BY abs(z) DESC

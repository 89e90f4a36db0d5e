-- title: exhaustive-draw (黄庄) rate outliers, by server build and by player
-- statistic: x = drawn hands out of n = ended hands, per server build and per player, against
--   the population baseline p0 (pooled, separately for 4- and 3-seat tables); stratified
--   binomial z = (x − Σp0) / sqrt(Σ p0(1 − p0)).
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: |z| > $z, for groups with at least $min_hands ended hands.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_hands INTEGER = 100: fewest ended hands for a group to be judged
WITH h AS (
    SELECT h.game, h.seats, (h.result = 'drawn')::INTEGER AS x, g.server, g.build
    FROM hands h JOIN games g USING (game)
    WHERE h.result IS NOT NULL
), base AS (
    SELECT seats, avg(x) AS p0 FROM h GROUP BY seats
), build_seats AS (
    SELECT server, build, seats, count(*) AS n, sum(x) AS x FROM h GROUP BY server, build, seats
), by_build AS (
    SELECT 'build' AS kind, server || ' ' || build AS who, sum(n) AS n, sum(x) AS x,
           sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM build_seats JOIN base USING (seats) GROUP BY server, build
), player_seats AS (
    SELECT hp.player, hh.seats, count(*) AS n, sum((hh.result = 'drawn')::INTEGER) AS x
    FROM hand_players hp
    JOIN hands hh USING (game, hand)
    WHERE hh.result IS NOT NULL AND hp.player IS NOT NULL
    GROUP BY hp.player, hh.seats
), per_player AS (
    SELECT 'player' AS kind, player AS who, sum(n) AS n, sum(x) AS x,
           sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM player_seats JOIN base USING (seats)
    GROUP BY player
), z AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS z
    FROM (SELECT * FROM by_build UNION ALL SELECT * FROM per_player)
    WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,
       CASE WHEN kind = 'player' THEN who END AS player,
       format('{} {}: {} of {} hands drawn ({:.1f}%), population {:.1f}%, z = {:.1f}',
              kind, who, x, n, 100.0 * x / n, 100.0 * e / n, z) AS detail,
       'z' AS statistic, z::DOUBLE AS value, (x / n)::DOUBLE AS rate, (e / n)::DOUBLE AS baseline, n::BIGINT AS n
FROM z
WHERE abs(z) > $z
ORDER BY abs(z) DESC

-- title: exhaustive-draw (黄庄) rate outliers, by server build and by player
-- statistic: per ruleset, x = drawn hands out of n = ended hands, per server build and per
--   player, against the ruleset's population baseline p0 (pooled, separately for 4- and
--   3-seat tables); stratified binomial z = (x − Σp0) / sqrt(Σ p0(1 − p0)).  A ruleset is its
--   preset and options (game_rulesets.ruleset): 血战到底 and the draw reserve change how often
--   a hand is drawn, so each ruleset is its own population.  A hand is drawn when it ended in
--   HandDrawn (hands.result): under 血战到底 that is a hand whose wall ran out, with or
--   without wins before.
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: |z| > $z, for groups with at least $min_hands ended hands in the ruleset.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_hands INTEGER = 100: fewest ended hands for a group to be judged
WITH h AS (
    SELECT h.game, h.hand, h.seats, (h.result = 'drawn')::INTEGER AS x, g.server, g.build, rs.ruleset
    FROM hands h JOIN games g USING (game) JOIN game_rulesets rs USING (game)
    WHERE h.result IS NOT NULL
), base AS (
    SELECT ruleset, seats, avg(x) AS p0 FROM h GROUP BY ruleset, seats
), build_seats AS (
    SELECT ruleset, server, build, seats, count(*) AS n, sum(x) AS x FROM h GROUP BY ruleset, server, build, seats
), by_build AS (
    SELECT ruleset, 'build' AS kind, server || ' ' || build AS who, sum(n) AS n, sum(x) AS x,
           sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM build_seats JOIN base USING (ruleset, seats) GROUP BY ruleset, server, build
), player_seats AS (
    SELECT h.ruleset, hp.player, h.seats, count(*) AS n, sum(h.x) AS x
    FROM hand_players hp
    JOIN h USING (game, hand)
    WHERE hp.player IS NOT NULL
    GROUP BY h.ruleset, hp.player, h.seats
), per_player AS (
    SELECT ruleset, 'player' AS kind, player AS who, sum(n) AS n, sum(x) AS x,
           sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM player_seats JOIN base USING (ruleset, seats)
    GROUP BY ruleset, player
), scored AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS zscore
    FROM (SELECT * FROM by_build UNION ALL SELECT * FROM per_player)
    WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,
       CASE WHEN kind = 'player' THEN who END AS player,
       format('{} {}: {} of {} hands drawn ({:.1f}%), population {:.1f}%, z = {:.1f}',
              kind, who, x, n, 100.0 * x / n, 100.0 * e / n, zscore) AS detail,
       'z' AS statistic, zscore::DOUBLE AS value, (x / n)::DOUBLE AS rate, (e / n)::DOUBLE AS baseline, n::BIGINT AS n,
       ruleset
FROM scored
WHERE abs(zscore) > $z
ORDER BY ruleset, abs(zscore) DESC, kind, who

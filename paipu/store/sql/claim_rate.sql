-- title: player claim rate far from the population
-- statistic: per ruleset and player, x = claims on a discard (chow + pong + exposed kong) out
--   of n = the discards the other seats made in the player's hands (each can be claimed at
--   most once), against the baseline p0 = the median of the claim rates of the ruleset's
--   players (players with 100+ offered, the pooled rate where none has; separately for 4- and
--   3-seat tables; the median, so that one extreme player does not move everyone else's
--   baseline); stratified binomial z = (x − Σ n·p0) / sqrt(Σ n·p0(1 − p0)).  A ruleset is its
--   preset and options (game_rulesets.ruleset): a room with 吃 claims far more often than one
--   without.  Under 血战到底 n counts only the discards made before the player won and left the
--   hand (hand_players.offered).
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: |z| > $z, for players with at least $min_offered discards offered in the ruleset.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_offered INTEGER = 500: fewest offered discards for a player to be judged
WITH hp AS (
    SELECT rs.ruleset, hp.player, hp.seats, hp.claims, hp.offered
    FROM hand_players hp JOIN game_rulesets rs USING (game)
    WHERE hp.player IS NOT NULL
), rates AS (
    SELECT ruleset, seats, player, sum(claims) / nullif(sum(offered), 0) AS r, sum(offered) AS n
    FROM hp GROUP BY ruleset, seats, player
), base AS (
    SELECT ruleset, seats, coalesce(median(r) FILTER (WHERE n >= 100), sum(r * n) / nullif(sum(n), 0)) AS p0
    FROM rates GROUP BY ruleset, seats
), per_seats AS (
    SELECT ruleset, player, seats, sum(offered) AS n, sum(claims) AS x FROM hp GROUP BY ruleset, player, seats
), per AS (
    SELECT ruleset, player, sum(n) AS n, sum(x) AS x, sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM per_seats JOIN base USING (ruleset, seats)
    GROUP BY ruleset, player
), scored AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS zscore FROM per WHERE n >= $min_offered
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, player,
       format('claimed {} of {} discards offered ({:.1f}%), baseline {:.1f}%, z = {:.1f}',
              x, n, 100.0 * x / n, 100.0 * e / n, zscore) AS detail,
       'z' AS statistic, zscore::DOUBLE AS value, (x / n)::DOUBLE AS rate, (e / n)::DOUBLE AS baseline, n::BIGINT AS n,
       ruleset
FROM scored
WHERE abs(zscore) > $z
ORDER BY ruleset, abs(zscore) DESC, player

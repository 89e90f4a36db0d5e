-- title: player discard-win (点炮) rate far from the population
-- statistic: per ruleset and player, x = hands in which the player discarded the winning tile
--   / ended (won or drawn) hands played, against the population baseline p0 = the median of
--   the rates of the ruleset's players (players with 20+ hands, the pooled rate where none
--   has; separately for 4- and 3-seat tables; the median, so that one extreme player does not
--   move everyone else's baseline); z-score of a binomial proportion, stratified:
--   z = (x − Σp0) / sqrt(Σ p0(1 − p0)) over the player's hands.  A ruleset is its preset and
--   options (game_rulesets.ruleset).
-- sums: counts per table size first, then at most two products, so the result does not depend
--   on the order rows are read in (the same answer from every store).
-- threshold: |z| > $z, for players with at least $min_hands hands in the ruleset.
-- param z DOUBLE = 4.0: z-score threshold (two-sided)
-- param min_hands INTEGER = 100: fewest hands for a player to be judged
WITH hp AS (
    SELECT rs.ruleset, hp.player, hp.seats, hp.dealt_in::INTEGER AS x
    FROM hand_players hp JOIN hands h USING (game, hand) JOIN game_rulesets rs USING (game)
    WHERE h.result IS NOT NULL AND hp.player IS NOT NULL
), rates AS (
    SELECT ruleset, seats, player, avg(x) AS r, count(*) AS n FROM hp GROUP BY ruleset, seats, player
), base AS (
    SELECT ruleset, seats, coalesce(median(r) FILTER (WHERE n >= 20), sum(r * n) / sum(n)) AS p0
    FROM rates GROUP BY ruleset, seats
), per_seats AS (
    SELECT ruleset, player, seats, count(*) AS n, sum(x) AS x FROM hp GROUP BY ruleset, player, seats
), per AS (
    SELECT ruleset, player, sum(n) AS n, sum(x) AS x, sum(n * p0) AS e, sum(n * p0 * (1 - p0)) AS v
    FROM per_seats JOIN base USING (ruleset, seats)
    GROUP BY ruleset, player
), scored AS (
    SELECT *, (x - e) / sqrt(nullif(v, 0)) AS zscore FROM per WHERE n >= $min_hands
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, player,
       format('dealt in {} of {} hands ({:.1f}%), baseline {:.1f}% (expected {:.0f}), z = {:.1f}',
              x, n, 100.0 * x / n, 100.0 * e / n, e, zscore) AS detail,
       'z' AS statistic, zscore::DOUBLE AS value, (x / n)::DOUBLE AS rate, (e / n)::DOUBLE AS baseline, n::BIGINT AS n,
       ruleset
FROM scored
WHERE abs(zscore) > $z
ORDER BY ruleset, abs(zscore) DESC, player

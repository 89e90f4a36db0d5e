-- title: rule findings by player
-- statistic: per player, x = hands in which an error-severity audit finding names the player's
--   seat, out of n = hands played, against the pooled baseline p0 over all players;
--   binomial z = (x − n·p0) / sqrt(n·p0(1 − p0)).  Games opened in [$since, $until) only
--   (either may be null: no bound).
-- threshold: z > $z and x >= $min_hands; every finding of such a player is returned.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_hands INTEGER = 5: fewest hands with findings for a player to be judged
-- param since TIMESTAMPTZ = null: earliest game opening considered
-- param until TIMESTAMPTZ = null: games opened from this time on are not considered
WITH g AS (
    SELECT game FROM games
    WHERE (CAST($since AS TIMESTAMPTZ) IS NULL OR opened_at >= CAST($since AS TIMESTAMPTZ))
      AND (CAST($until AS TIMESTAMPTZ) IS NULL OR opened_at < CAST($until AS TIMESTAMPTZ))
), f AS (
    SELECT f.* FROM findings f JOIN g USING (game) WHERE f.severity = 'error' AND f.player IS NOT NULL
), hp AS (
    SELECT hp.player, hp.game, hp.hand,
           EXISTS (SELECT 1 FROM f WHERE f.game = hp.game AND f.hand = hp.hand AND f.player = hp.player) AS bad
    FROM hand_players hp JOIN g USING (game)
), per AS (
    SELECT player, count(*) AS n, sum(bad::INTEGER) AS x FROM hp GROUP BY player
), base AS (
    SELECT sum(x) / sum(n) AS p0 FROM per
), z AS (
    SELECT per.*, p0, (x - n * p0) / sqrt(nullif(n * p0 * (1 - p0), 0)) AS z FROM per, base
)
SELECT f.game, f.hand, f.seq, f.seat, f.player,
       format('{}: {} — player has findings in {} of {} hands ({:.1f}%, population {:.1f}%), z = {:.1f}',
              f.code, f.message, z.x, z.n, 100.0 * z.x / z.n, 100.0 * z.p0, z.z) AS detail,
       'z' AS statistic, z.z::DOUBLE AS value, (z.x / z.n)::DOUBLE AS rate, z.p0::DOUBLE AS baseline, z.n::BIGINT AS n
FROM z JOIN f USING (player)
WHERE z.z > $z AND z.x >= $min_hands
ORDER BY z.z DESC, f.game, f.seq

-- title: rule findings by player
-- statistic: per ruleset and player, x = hands in which an error-severity audit finding names
--   the player's seat, out of n = hands played in audited games (a game the audit never ran on
--   has no findings to count), against the ruleset's pooled baseline p0 over
--   its players; binomial z = (x − n·p0) / sqrt(n·p0(1 − p0)).  Games opened in
--   [$since, $until) only (either may be null: no bound).  A ruleset is its preset and options
--   (game_rulesets.ruleset): each family has its own rules to break.
-- threshold: z > $z and x >= $min_hands; every finding of such a player is returned.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_hands INTEGER = 5: fewest hands with findings for a player to be judged
-- param since TIMESTAMPTZ = null: earliest game opening considered
-- param until TIMESTAMPTZ = null: games opened from this time on are not considered
WITH g AS (
    SELECT g.game, rs.ruleset FROM games g JOIN game_rulesets rs USING (game)
    WHERE g.audited
      AND (CAST($since AS TIMESTAMPTZ) IS NULL OR opened_at >= CAST($since AS TIMESTAMPTZ))
      AND (CAST($until AS TIMESTAMPTZ) IS NULL OR opened_at < CAST($until AS TIMESTAMPTZ))
), f AS (
    SELECT f.*, g.ruleset FROM findings f JOIN g USING (game) WHERE f.severity = 'error' AND f.player IS NOT NULL
), hp AS (
    SELECT g.ruleset, hp.player, hp.game, hp.hand,
           EXISTS (SELECT 1 FROM f WHERE f.game = hp.game AND f.hand = hp.hand AND f.player = hp.player) AS bad
    FROM hand_players hp JOIN g USING (game)
    WHERE hp.player IS NOT NULL
), per AS (
    SELECT ruleset, player, count(*) AS n, sum(bad::INTEGER) AS x FROM hp GROUP BY ruleset, player
), base AS (
    SELECT ruleset, sum(x) / sum(n) AS p0 FROM per GROUP BY ruleset
), scored AS (
    SELECT per.*, p0, (x - n * p0) / sqrt(nullif(n * p0 * (1 - p0), 0)) AS zscore FROM per JOIN base USING (ruleset)
)
SELECT f.game, f.hand, f.seq, f.seat, f.player,
       format('{}: {} — player has findings in {} of {} hands ({:.1f}%, population {:.1f}%), z = {:.1f}',
              f.code, f.message, scored.x, scored.n, 100.0 * scored.x / scored.n, 100.0 * scored.p0, scored.zscore) AS detail,
       'z' AS statistic, scored.zscore::DOUBLE AS value, (scored.x / scored.n)::DOUBLE AS rate, scored.p0::DOUBLE AS baseline, scored.n::BIGINT AS n,
       scored.ruleset
FROM scored JOIN f USING (ruleset, player)
WHERE scored.zscore > $z AND scored.x >= $min_hands
ORDER BY scored.ruleset, scored.zscore DESC, f.game, f.seq

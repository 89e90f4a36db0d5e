-- title: systematic underpayment by server build
-- statistic: per ruleset and server build, x = settled hands in which the corrected ledger
--   shorted some player (a seat's error > 0: the hand paid it less than the rules give), out of
--   n = settled hands of the build's audited games, against the ruleset's pooled baseline p0
--   over its builds; binomial z = (x − n·p0) / sqrt(n·p0(1 − p0)).  The points shorted are
--   summed beside it.  Games opened in [$since, $until) only (either may be null: no bound).
--   A ruleset is its preset and options (game_rulesets.ruleset).
-- threshold: x >= $min_hands and (z > $z, or every build of the ruleset shorts players so that
--   no build stands out: p0 >= $rate); one row per flagged build, located at its first shorted hand.
-- param z DOUBLE = 3.0: z-score threshold (one-sided, above the baseline)
-- param min_hands INTEGER = 3: fewest shorted hands for a build to be judged
-- param rate DOUBLE = 0.05: a pooled share of shorted hands this high flags every build that has any
-- param since TIMESTAMPTZ = null: earliest game opening considered
-- param until TIMESTAMPTZ = null: games opened from this time on are not considered
WITH g AS (
    SELECT g.game, rs.ruleset, g.server, g.build FROM games g JOIN game_rulesets rs USING (game)
    WHERE audited
      AND (CAST($since AS TIMESTAMPTZ) IS NULL OR opened_at >= CAST($since AS TIMESTAMPTZ))
      AND (CAST($until AS TIMESTAMPTZ) IS NULL OR opened_at < CAST($until AS TIMESTAMPTZ))
), h AS (
    SELECT l.game, l.hand, g.ruleset, g.server, g.build,
           max(l.error) > 0 AS shorted,
           sum(CASE WHEN l.error > 0 THEN l.error ELSE 0 END) AS points
    FROM ledger l JOIN g USING (game)
    GROUP BY ALL
), per AS (
    SELECT ruleset, server, build, count(*) AS n, count(*) FILTER (WHERE shorted) AS x, sum(points) AS points
    FROM h GROUP BY ALL
), base AS (
    SELECT ruleset, sum(x) / sum(n) AS p0 FROM per GROUP BY ruleset
), scored AS (
    SELECT per.*, p0, (x - n * p0) / sqrt(nullif(n * p0 * (1 - p0), 0)) AS zscore FROM per JOIN base USING (ruleset)
), first_h AS (
    SELECT ruleset, server, build, arg_min(game, (game, hand)) AS game, arg_min(hand, (game, hand)) AS hand
    FROM h WHERE shorted GROUP BY ALL
), located AS (
    SELECT f.ruleset, f.server, f.build, f.game, f.hand, hs.settled_seq AS seq,
           arg_max(l.seat, l.error) AS seat, arg_max(l.player, l.error) AS player
    FROM first_h f
    JOIN hands hs ON hs.game = f.game AND hs.hand = f.hand
    JOIN ledger l ON l.game = f.game AND l.hand = f.hand
    GROUP BY ALL
)
SELECT lo.game, lo.hand, lo.seq, lo.seat, lo.player,
       format('server {} build {}: players shorted in {} of {} settled hands ({:.1f}%, population {:.1f}%), '
              '{} points in all, z = {}', scored.server, scored.build, scored.x, scored.n, 100.0 * scored.x / scored.n, 100.0 * scored.p0, scored.points,
              coalesce(format('{:.1f}', scored.zscore), 'n/a')) AS detail,
       'z' AS statistic, scored.zscore::DOUBLE AS value, (scored.x / scored.n)::DOUBLE AS rate, scored.p0::DOUBLE AS baseline,
       scored.n::BIGINT AS n, scored.ruleset
FROM scored
JOIN located lo USING (ruleset, server, build)
WHERE scored.x >= $min_hands AND (scored.zscore > $z OR scored.p0 >= $rate)
ORDER BY scored.ruleset, scored.zscore DESC NULLS FIRST, scored.server, scored.build

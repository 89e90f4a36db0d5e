-- title: rule findings by server build over time
-- statistic: per ruleset, server build and period (date_trunc($period, opened_at)), x = hands
--   with at least one error-severity audit finding, out of n = hands of audited games (a game the
--   audit never ran on has no findings to count), against the ruleset's
--   pooled baseline p0 over all its builds and periods; binomial z = (x − n·p0) /
--   sqrt(n·p0(1 − p0)).  Games opened in [$since, $until) only (either may be null: no bound).
--   A ruleset is its preset and options (game_rulesets.ruleset).
-- threshold: z > $z and x >= $min_hands; one row per flagged build and period, located at its
--   first finding, with the most frequent codes.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_hands INTEGER = 5: fewest hands with findings for a build-period to be judged
-- param period VARCHAR = month: the time bucket (day, week, month, quarter, year)
-- param since TIMESTAMPTZ = null: earliest game opening considered
-- param until TIMESTAMPTZ = null: games opened from this time on are not considered
WITH g AS (
    SELECT g.game, rs.ruleset, g.server, g.build, date_trunc($period, g.opened_at) AS bucket
    FROM games g JOIN game_rulesets rs USING (game)
    WHERE g.audited
      AND (CAST($since AS TIMESTAMPTZ) IS NULL OR opened_at >= CAST($since AS TIMESTAMPTZ))
      AND (CAST($until AS TIMESTAMPTZ) IS NULL OR opened_at < CAST($until AS TIMESTAMPTZ))
), f AS (
    SELECT f.*, g.ruleset, g.server, g.build, g.bucket FROM findings f JOIN g USING (game) WHERE f.severity = 'error'
), fh AS (
    SELECT DISTINCT game, hand FROM f
), per AS (
    SELECT g.ruleset, g.server, g.build, g.bucket, count(*) AS n, count(fh.game) AS x
    FROM hands h JOIN g USING (game) LEFT JOIN fh ON fh.game = h.game AND fh.hand = h.hand
    GROUP BY ALL
), base AS (
    SELECT ruleset, sum(x) / sum(n) AS p0 FROM per GROUP BY ruleset
), scored AS (
    SELECT per.*, p0, (x - n * p0) / sqrt(nullif(n * p0 * (1 - p0), 0)) AS zscore FROM per JOIN base USING (ruleset)
), first_f AS (
    SELECT ruleset, server, build, bucket, arg_min(game, (game, seq)) AS game, arg_min(hand, (game, seq)) AS hand,
           arg_min(seq, (game, seq)) AS seq, arg_min(seat, (game, seq)) AS seat,
           arg_min(player, (game, seq)) AS player
    FROM f GROUP BY ALL
), codes AS (
    SELECT ruleset, server, build, bucket, string_agg(format('{} ×{}', code, c), ', ' ORDER BY c DESC, code) AS top
    FROM (SELECT ruleset, server, build, bucket, code, count(*) AS c FROM f GROUP BY ALL)
    GROUP BY ALL
)
SELECT ff.game, ff.hand, ff.seq, ff.seat, ff.player,
       format('server {} build {} {} from {}: findings in {} of {} hands ({:.1f}%, population {:.1f}%), z = {:.1f}; {}',
              scored.server, scored.build, $period, strftime(scored.bucket, '%Y-%m-%d'), scored.x, scored.n, 100.0 * scored.x / scored.n,
              100.0 * scored.p0, scored.zscore, c.top) AS detail,
       'z' AS statistic, scored.zscore::DOUBLE AS value, (scored.x / scored.n)::DOUBLE AS rate, scored.p0::DOUBLE AS baseline, scored.n::BIGINT AS n,
       scored.ruleset
FROM scored
JOIN first_f ff USING (ruleset, server, build, bucket)
JOIN codes c USING (ruleset, server, build, bucket)
WHERE scored.zscore > $z AND scored.x >= $min_hands
ORDER BY scored.ruleset, scored.zscore DESC

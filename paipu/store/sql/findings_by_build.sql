-- title: rule findings by server build over time
-- statistic: per server build and period (date_trunc($period, opened_at)), x = hands with at
--   least one error-severity audit finding, out of n = hands, against the pooled baseline p0
--   over all builds and periods; binomial z = (x − n·p0) / sqrt(n·p0(1 − p0)).  Games opened
--   in [$since, $until) only (either may be null: no bound).
-- threshold: z > $z and x >= $min_hands; one row per flagged build and period, located at its
--   first finding, with the most frequent codes.
-- param z DOUBLE = 4.0: z-score threshold (one-sided, above the baseline)
-- param min_hands INTEGER = 5: fewest hands with findings for a build-period to be judged
-- param period VARCHAR = month: the time bucket (day, week, month, quarter, year)
-- param since TIMESTAMPTZ = null: earliest game opening considered
-- param until TIMESTAMPTZ = null: games opened from this time on are not considered
WITH g AS (
    SELECT game, server, build, date_trunc($period, opened_at) AS period FROM games
    WHERE (CAST($since AS TIMESTAMPTZ) IS NULL OR opened_at >= CAST($since AS TIMESTAMPTZ))
      AND (CAST($until AS TIMESTAMPTZ) IS NULL OR opened_at < CAST($until AS TIMESTAMPTZ))
), f AS (
    SELECT f.*, g.server, g.build, g.period FROM findings f JOIN g USING (game) WHERE f.severity = 'error'
), fh AS (
    SELECT DISTINCT game, hand FROM f
), per AS (
    SELECT g.server, g.build, g.period, count(*) AS n, count(fh.game) AS x
    FROM hands h JOIN g USING (game) LEFT JOIN fh ON fh.game = h.game AND fh.hand = h.hand
    GROUP BY ALL
), base AS (
    SELECT sum(x) / sum(n) AS p0 FROM per
), z AS (
    SELECT per.*, p0, (x - n * p0) / sqrt(nullif(n * p0 * (1 - p0), 0)) AS z FROM per, base
), first_f AS (
    SELECT server, build, period, arg_min(game, (game, seq)) AS game, arg_min(hand, (game, seq)) AS hand,
           arg_min(seq, (game, seq)) AS seq, arg_min(seat, (game, seq)) AS seat,
           arg_min(player, (game, seq)) AS player
    FROM f GROUP BY ALL
), codes AS (
    SELECT server, build, period, string_agg(format('{} ×{}', code, c), ', ' ORDER BY c DESC, code) AS top
    FROM (SELECT server, build, period, code, count(*) AS c FROM f GROUP BY ALL)
    GROUP BY ALL
)
SELECT ff.game, ff.hand, ff.seq, ff.seat, ff.player,
       format('server {} build {} {} from {}: findings in {} of {} hands ({:.1f}%, population {:.1f}%), z = {:.1f}; {}',
              z.server, z.build, $period, strftime(z.period, '%Y-%m-%d'), z.x, z.n, 100.0 * z.x / z.n,
              100.0 * z.p0, z.z, c.top) AS detail,
       'z' AS statistic, z.z::DOUBLE AS value, (z.x / z.n)::DOUBLE AS rate, z.p0::DOUBLE AS baseline, z.n::BIGINT AS n
FROM z
JOIN first_f ff USING (server, build, period)
JOIN codes c USING (server, build, period)
WHERE z.z > $z AND z.x >= $min_hands
ORDER BY z.z DESC

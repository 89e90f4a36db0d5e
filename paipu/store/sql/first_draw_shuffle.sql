-- title: first-draw tile distribution against uniform (shuffle check), by server build
-- statistic: per server build, the first tile drawn from the wall after each deal; under a fair
--   shuffle every one of the 34 kinds has probability 4/136 = 1/34.  Pearson chi-square
--   X² = Σ (observed − n/34)² / (n/34) over all 34 kinds, 33 degrees of freedom.  DuckDB has
--   no chi-square CDF, so X² is compared with a critical value given as a parameter
--   (63.87 is the 0.999 quantile of chi-square with 33 df, i.e. p < 0.001).
-- threshold: X² > $critical, for builds with at least $min_draws hands (n/34 ≥ 5 at 170).
-- param critical DOUBLE = 63.87: chi-square critical value for 33 degrees of freedom
-- param min_draws INTEGER = 170: fewest first draws for a build to be judged
WITH kinds AS (
    SELECT n::VARCHAR || s AS tile
    FROM (SELECT unnest(['m', 'p', 's']) AS s), range(1, 10) r(n)
    UNION ALL
    SELECT n::VARCHAR || 'z' FROM range(1, 8) r(n)
), draws AS (
    SELECT g.server, g.build, h.first_draw AS tile
    FROM hands h JOIN games g USING (game)
    WHERE h.first_draw IS NOT NULL
), builds AS (
    SELECT server, build, count(*) AS n FROM draws GROUP BY server, build HAVING count(*) >= $min_draws
), obs AS (
    SELECT b.server, b.build, b.n, k.tile, coalesce(c.o, 0) AS o
    FROM builds b CROSS JOIN kinds k
    LEFT JOIN (SELECT server, build, tile, count(*) AS o FROM draws GROUP BY ALL) c
        ON c.server = b.server AND c.build = b.build AND c.tile = k.tile
), chi AS (
    SELECT server, build, n, 34.0 * sum(o * o) / n - n AS x2,  -- = Σ (o − n/34)² / (n/34), summed exactly
           string_agg(format('{} {}', tile, o), ', ' ORDER BY o DESC, tile) FILTER (WHERE o > 2 * n / 34.0) AS high
    FROM obs GROUP BY server, build, n
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,
       NULL::VARCHAR AS player,
       format('server {} build {}: chi-square {:.1f} > {} over {} first draws (expected {:.1f} per kind); over twice expected: {}',
              server, build, x2, $critical, n, n / 34.0, coalesce(high, 'none')) AS detail,
       'chi2' AS statistic, x2::DOUBLE AS value, NULL::DOUBLE AS rate, 33::DOUBLE AS baseline, n::BIGINT AS n
FROM chi
WHERE x2 > $critical
ORDER BY x2 DESC

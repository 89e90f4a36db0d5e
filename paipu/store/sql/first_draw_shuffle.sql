-- title: first-draw tile distribution against uniform (shuffle check), by ruleset and server build
-- statistic: per ruleset and server build, the first tile drawn from the wall after each deal;
--   under a fair shuffle every one of the ruleset's k kinds (game_rulesets.tile_kinds: 34, or
--   27 for the 108-tile Sichuan and Changsha sets) has probability 1/k.  Pearson chi-square
--   X² = Σ (observed − n/k)² / (n/k) over the k kinds, k − 1 degrees of freedom.  DuckDB has
--   no chi-square quantile, so the critical value is the Wilson–Hilferty approximation
--   (k − 1)·(1 − 2/(9(k − 1)) + $level_z·sqrt(2/(9(k − 1))))³ of the quantile at the normal
--   quantile $level_z (3.09: p < 0.001; 63.97 for 33 df, 54.16 for 26 df, against the exact
--   63.87 and 54.05).  A draw of a kind outside the set counts against the shuffle; a flower
--   (1f..8f, one of each in a 144-tile set, set aside and replaced) is not a kind of four.
-- threshold: X² > that critical value, for groups with at least $min_draws hands.
-- param level_z DOUBLE = 3.0902: standard-normal quantile of the test level (3.0902: p < 0.001)
-- param min_draws INTEGER = 170: fewest first draws for a build to be judged (n/k >= 5 at 170)
WITH draws AS (
    SELECT rs.ruleset, rs.tile_kinds, g.server, g.build, h.first_draw AS tile
    FROM hands h JOIN games g USING (game) JOIN game_rulesets rs USING (game)
    WHERE h.first_draw IS NOT NULL AND rs.tile_kinds IS NOT NULL AND NOT h.first_draw LIKE '%f'
), builds AS (
    SELECT ruleset, server, build, any_value(tile_kinds) AS tile_kinds, len(any_value(tile_kinds)) AS k,
           count(*) AS n
    FROM draws GROUP BY ruleset, server, build HAVING count(*) >= $min_draws
), kinds AS (
    SELECT ruleset, server, build, unnest(tile_kinds) AS tile FROM builds
), counted AS (
    SELECT ruleset, server, build, tile, count(*) AS o FROM draws GROUP BY ruleset, server, build, tile
), obs AS (
    -- every kind of the set (0 when never drawn first), and any kind outside it
    SELECT coalesce(k.ruleset, c.ruleset) AS ruleset, coalesce(k.server, c.server) AS server,
           coalesce(k.build, c.build) AS build, coalesce(k.tile, c.tile) AS tile, coalesce(c.o, 0) AS o,
           k.tile IS NULL AS outside
    FROM kinds k FULL JOIN counted c
        ON c.ruleset = k.ruleset AND c.server = k.server AND c.build = k.build AND c.tile = k.tile
), chi AS (
    SELECT b.ruleset, b.server, b.build, b.n, b.k,
           -- = Σ (o − n/k)² / (n/k), summed exactly; a kind outside the set expects 0
           b.k * sum(ob.o * ob.o) FILTER (WHERE NOT ob.outside) / b.n - b.n
               + CASE WHEN sum(ob.o) FILTER (WHERE ob.outside) > 0 THEN 'infinity'::DOUBLE ELSE 0 END AS x2,
           (b.k - 1) * pow(1 - 2 / (9.0 * (b.k - 1)) + $level_z * sqrt(2 / (9.0 * (b.k - 1))), 3) AS critical,
           string_agg(format('{} {}', ob.tile, ob.o), ', ' ORDER BY ob.o DESC, ob.tile)
               FILTER (WHERE ob.o > 2 * b.n / b.k OR ob.outside) AS high
    FROM builds b JOIN obs ob USING (ruleset, server, build)
    GROUP BY b.ruleset, b.server, b.build, b.n, b.k
)
SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,
       NULL::VARCHAR AS player,
       format('server {} build {}: chi-square {:.1f} > {:.2f} over {} first draws of {} kinds (expected {:.1f} per kind); '
              'over twice expected: {}', server, build, x2, critical, n, k, n / k, coalesce(high, 'none')) AS detail,
       'chi2' AS statistic, x2::DOUBLE AS value, NULL::DOUBLE AS rate, (k - 1)::DOUBLE AS baseline, n::BIGINT AS n,
       ruleset
FROM chi
WHERE x2 > critical
ORDER BY ruleset, x2 DESC

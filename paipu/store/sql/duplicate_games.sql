-- title: duplicate games under different ids
-- statistic: games whose events are identical once game id and times are set aside
--   (games.body_hash), among games with at least one hand (empty rooms look alike).
-- threshold: two or more game ids share a body hash; every one of them is returned.
WITH dup AS (
    SELECT body_hash, list(game ORDER BY game) AS ids
    FROM games WHERE hands > 0
    GROUP BY body_hash HAVING count(*) > 1
)
SELECT g.game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, NULL::VARCHAR AS player,
       format('same events as {} (file {}, server {} build {})',
              array_to_string(list_filter(d.ids, lambda x: x <> g.game), ', '), g.file, g.server, g.build) AS detail,
       'copies' AS statistic, len(d.ids)::DOUBLE AS value, NULL::DOUBLE AS rate, 1::DOUBLE AS baseline, len(d.ids)::BIGINT AS n,
       rs.ruleset
FROM games g JOIN dup d USING (body_hash) JOIN game_rulesets rs USING (game)
ORDER BY d.ids[1], g.game

-- title: negative scores under 20分敲锣
-- statistic: every score a 20分敲锣 (qiaoluo) game reports — after each settled hand and in
--   GameClosed — where nobody may go below 0.
-- threshold: any score < $floor.
-- param floor INTEGER = 0: the lowest score allowed
WITH q AS (
    SELECT game, server, build, closed_at, final_scores, players, rs.ruleset
    FROM games g JOIN game_rulesets rs USING (game)
    WHERE (g.ruleset->>'qiaoluo')::BOOLEAN
)
SELECT hp.game, hp.hand, hp.settled_seq AS seq, hp.seat, hp.player,
       format('score {} after hand {} (was {}); server {} build {}',
              hp.score_after, hp.hand, hp.score_before, q.server, q.build) AS detail,
       'score' AS statistic, hp.score_after::DOUBLE AS value, NULL::DOUBLE AS rate, $floor::DOUBLE AS baseline,
       NULL::BIGINT AS n, q.ruleset
FROM hand_players hp JOIN q USING (game)
WHERE hp.score_after < $floor
UNION ALL
SELECT q.game, NULL, e.seq, s.seat, q.players[s.seat + 1],
       format('final score {} in GameClosed; server {} build {}', q.final_scores[s.seat + 1], q.server, q.build),
       'score', q.final_scores[s.seat + 1]::DOUBLE, NULL::DOUBLE, $floor::DOUBLE, NULL::BIGINT, q.ruleset
FROM q
JOIN events e ON e.game = q.game AND e.type = 'GameClosed'
CROSS JOIN LATERAL (SELECT unnest(range(len(q.final_scores))) AS seat) s
WHERE q.final_scores[s.seat + 1] < $floor
ORDER BY 1, 2 NULLS LAST, 4

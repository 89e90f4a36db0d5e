-- title: wrong 养猪 payouts
-- statistic: per won hand of a 养猪 game and per (payer, winner), the logged win + qianggang +
--   yangzhu transfers against wins.due, what the rule family settles that payer to pay the
--   winner for the points the server claimed (computed when the game was stored).
-- threshold: |paid − expected| > $tolerance points.  20分敲锣 games are left out (clamped payments).
-- param tolerance INTEGER = 0: points of difference tolerated
WITH g AS (
    SELECT game, server, build, rs.ruleset FROM games g JOIN game_rulesets rs USING (game)
    WHERE (g.ruleset->>'yangzhu')::BOOLEAN AND NOT (g.ruleset->>'qiaoluo')::BOOLEAN
), won AS (
    SELECT w.game, w.hand, w.seat AS winner, w.due, h.settled_seq
    FROM wins w JOIN g USING (game) JOIN hands h USING (game, hand)
    WHERE h.settled AND w.due IS NOT NULL
), shares AS (
    SELECT game, hand, settled_seq, winner, due, unnest(range(len(due))) AS payer FROM won
), expected AS (
    SELECT game, hand, settled_seq, payer, winner, due[payer + 1] AS expected
    FROM shares WHERE due[payer + 1] <> 0
), paid AS (
    SELECT t.game, t.hand, t.payer, t.payee AS winner, sum(t.amount) AS paid
    FROM transfers t JOIN g USING (game)
    WHERE t.reason IN ('win', 'qianggang', 'yangzhu')
    GROUP BY ALL
), cmp AS (
    SELECT coalesce(e.game, p.game) AS game, coalesce(e.hand, p.hand) AS hand,
           coalesce(e.payer, p.payer) AS payer, coalesce(e.winner, p.winner) AS winner,
           coalesce(e.expected, 0) AS expected, coalesce(p.paid, 0) AS paid
    FROM expected e FULL JOIN paid p
        ON e.game = p.game AND e.hand = p.hand AND e.payer = p.payer AND e.winner = p.winner
)
SELECT c.game, c.hand, h.settled_seq AS seq, c.payer AS seat, hp.player,
       format('seat {} paid seat {} {} (win + bets), expected {}; bets {} and {}; server {} build {}',
              c.payer, c.winner, c.paid, c.expected, hp.bet, hw.bet, g.server, g.build) AS detail,
       'difference' AS statistic, (c.paid - c.expected)::DOUBLE AS value, NULL::DOUBLE AS rate, c.expected::DOUBLE AS baseline, NULL::BIGINT AS n,
       g.ruleset
FROM cmp c
JOIN g USING (game)
JOIN hands h ON h.game = c.game AND h.hand = c.hand
LEFT JOIN hand_players hp ON hp.game = c.game AND hp.hand = c.hand AND hp.seat = c.payer
LEFT JOIN hand_players hw ON hw.game = c.game AND hw.hand = c.hand AND hw.seat = c.winner
WHERE abs(c.paid - c.expected) > $tolerance
ORDER BY c.game, c.hand, c.payer

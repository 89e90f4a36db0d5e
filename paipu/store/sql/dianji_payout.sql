-- title: wrong 点鸡 payouts
-- statistic: per settled hand and seat of a 点鸡 game, the net of the logged dianji transfers
--   against hand_players.dianji_due, the net the rule family settles for the table's chickens
--   (the chickens each seat answers for: dealt or drawn; a discarded chicken stays its
--   discarder's), computed when the game was stored.
-- threshold: |actual − expected| > $tolerance points.  20分敲锣 games are left out (payments
--   there are clamped at 0, which the audit judges step by step).
-- param tolerance INTEGER = 0: points of difference tolerated
WITH rules AS (
    SELECT game, build, server, rs.ruleset,
           (g.ruleset->>'base')::INTEGER AS base
    FROM games g JOIN game_rulesets rs USING (game)
    WHERE (g.ruleset->>'dianji')::BOOLEAN AND NOT (g.ruleset->>'qiaoluo')::BOOLEAN
), hp AS (
    SELECT p.*, r.base, r.build, r.server, r.ruleset,
           sum(p.chickens) OVER (PARTITION BY p.game, p.hand) AS table_chickens,
           p.dianji_due AS expected
    FROM hand_players p JOIN rules r USING (game)
    JOIN hands h USING (game, hand)
    WHERE h.settled AND p.dianji_due IS NOT NULL
)
SELECT game, hand, settled_seq AS seq, seat, player,
       format('点鸡 net {} expected {} ({} chickens of {} at the table, base {}); server {} build {}',
              dianji_net, expected, chickens, table_chickens, base,
              server, build) AS detail,
       'difference' AS statistic, (dianji_net - expected)::DOUBLE AS value, NULL::DOUBLE AS rate, expected::DOUBLE AS baseline, NULL::BIGINT AS n,
       ruleset
FROM hp
WHERE abs(dianji_net - expected) > $tolerance
ORDER BY game, hand, seat

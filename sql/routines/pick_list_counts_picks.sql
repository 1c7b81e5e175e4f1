-- Picks written, changed or deleted on a list already completed (not the app's way, but a
-- correction's): the list's counts are taken again (pick_list_counts). `changed` is the
-- statement's transition table, old or new rows (pick_list_counts_picks_*.trigger.sql).
CREATE OR REPLACE FUNCTION pick_list_counts_picks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE pick_lists l SET lines = x.lines, short_lines = x.short
    FROM (SELECT c.id, count(DISTINCT (p.order_id, p.product_id)) AS lines,
                 count(DISTINCT (p.order_id, p.product_id)) FILTER (WHERE p.short) AS short
          FROM (SELECT DISTINCT pick_list_id AS id FROM changed) c
          LEFT JOIN picks p ON p.pick_list_id = c.id
          GROUP BY c.id) x
    WHERE l.id = x.id AND l.status = 'completed' AND (l.lines, l.short_lines) IS DISTINCT FROM (x.lines::int, x.short::int);
    RETURN NULL;
END $$;

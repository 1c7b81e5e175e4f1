-- A pick list completed: its distinct lines picked and those picked short, kept on the list
-- (pick_lists.lines, .short_lines) so the picking report (issue 46) reads a year's lists, not
-- their picks. Counted as `ReportQueries.picking` counted them: a line is an order's product,
-- picked once or more.
CREATE OR REPLACE FUNCTION pick_list_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT count(DISTINCT (p.order_id, p.product_id)), count(DISTINCT (p.order_id, p.product_id)) FILTER (WHERE p.short)
    INTO NEW.lines, NEW.short_lines
    FROM picks p WHERE p.pick_list_id = NEW.id;
    RETURN NEW;
END $$;

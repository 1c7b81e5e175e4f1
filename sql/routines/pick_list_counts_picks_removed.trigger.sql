-- pick_list_counts_picks, for picks removed.
CREATE OR REPLACE TRIGGER pick_list_counts_picks_removed AFTER DELETE ON picks
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
EXECUTE FUNCTION pick_list_counts_picks();

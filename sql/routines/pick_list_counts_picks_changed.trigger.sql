-- pick_list_counts_picks, for picks changed.
CREATE OR REPLACE TRIGGER pick_list_counts_picks_changed AFTER UPDATE ON picks
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
EXECUTE FUNCTION pick_list_counts_picks();

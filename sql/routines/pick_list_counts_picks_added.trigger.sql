-- pick_list_counts_picks, for picks added.
CREATE OR REPLACE TRIGGER pick_list_counts_picks_added AFTER INSERT ON picks
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
EXECUTE FUNCTION pick_list_counts_picks();

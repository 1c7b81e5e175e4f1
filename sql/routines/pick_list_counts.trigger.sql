-- pick_list_counts, for a list written completed or completed now.
CREATE OR REPLACE TRIGGER pick_list_counts BEFORE INSERT OR UPDATE OF status ON pick_lists
FOR EACH ROW WHEN (NEW.status = 'completed')
EXECUTE FUNCTION pick_list_counts();

-- Ending a session, any way (every path sets sessions.ended_at), tells every instance to end its
-- live event streams at once (session_ended_notify).
CREATE OR REPLACE TRIGGER sessions_ended AFTER UPDATE OF ended_at ON sessions
FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
EXECUTE FUNCTION session_ended_notify();

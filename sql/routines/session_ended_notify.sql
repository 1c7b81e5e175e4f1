-- A live event stream is the session's, and ends with it (issue 24). Ending a session (any way:
-- every path sets sessions.ended_at, sessions_ended.trigger.sql) notifies `session <id>` on the
-- channel the instances' EventBus already listens on, and each instance ends that session's
-- streams at once. Expiry needs no notice: a stream knows when its session would expire
-- (`stream_session_deadline`) and asks again then.
CREATE OR REPLACE FUNCTION session_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fulfilment_events', 'session ' || NEW.id::text);
    RETURN NULL;
END
$$;

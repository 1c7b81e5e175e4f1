-- The envelope every event is sent in, by webhook and by SSE (Standard Webhooks' shape:
-- type, timestamp, data; plus the id, the store and its sequence).
CREATE OR REPLACE FUNCTION event_json(e events) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', e.id, 'type', e.type, 'timestamp', api_time(e.occurred_at),
        'storeId', e.store_id, 'sequence', e.sequence, 'data', e.data)::text
$$;

-- A CSV import started from the console or the API (issue 46): uploaded and previewed first
-- (every row checked and classed, in a transaction rolled back), then run by a worker in one
-- transaction that can be cancelled until it commits. The row is what a reader sees of it:
-- status, counts, refused rows and progress.
--
-- The worker's own transaction never touches this row until its very end (`SELECT … FOR UPDATE`,
-- then `committed` in the same transaction), so progress is written through a second connection
-- without waiting on it, and a cancel that arrives at the end waits for the commit and then finds
-- the import committed: exactly one of the two wins.
CREATE TABLE catalogue_imports (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id        uuid NOT NULL REFERENCES stores (id),
    created_by      uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    file_name       text NOT NULL DEFAULT '' CHECK (length(file_name) <= 200),
    -- The upload, as text (empty when it was refused before it could be read).
    csv             text NOT NULL,
    -- chain: the chain's admin's full file (products with this store's stock); store: a
    -- manager's file of their store's own columns only.
    scope           text NOT NULL CHECK (scope IN ('chain', 'store')),
    status          text NOT NULL DEFAULT 'previewed'
                    CHECK (status IN ('previewed', 'queued', 'running', 'cancelled', 'committed', 'failed')),
    row_count       integer NOT NULL DEFAULT 0 CHECK (row_count >= 0),
    new_count       integer NOT NULL DEFAULT 0 CHECK (new_count >= 0),
    changed_count   integer NOT NULL DEFAULT 0 CHECK (changed_count >= 0),
    unchanged_count integer NOT NULL DEFAULT 0 CHECK (unchanged_count >= 0),
    -- Refused rows, every one: [{"line": 3, "message": "..."}]. An import with any is never started.
    problems        jsonb NOT NULL DEFAULT '[]',
    -- Examples of what the import changes, at most 50 of each kind:
    -- [{"line", "sku", "name", "kind": "new"|"changed", "fields": ["price", ...]}].
    examples        jsonb NOT NULL DEFAULT '[]',
    -- Why a started import failed, when it is not its rows (they are in `problems`).
    failure         text CHECK (length(failure) <= 1000),
    progress_done   integer NOT NULL DEFAULT 0 CHECK (progress_done >= 0),
    progress_total  integer NOT NULL DEFAULT 0 CHECK (progress_total >= 0),
    -- The worker's backend and transaction: a `running` import whose transaction is no longer
    -- in progress (the instance died, the backend was ended) is read as failed.
    backend_pid     integer,
    backend_start   timestamptz,
    worker_xid      xid8,
    finished_at     timestamptz
);
CREATE INDEX catalogue_imports_store ON catalogue_imports (store_id, created_at DESC);

-- A manager's block stops an author posting at their store only; the chain's admin's (no store)
-- stops them everywhere (issue 41). One block per author and store, one chain-wide: the
-- primary key on the author alone let a manager of one store block a customer at every store,
-- where no other store's manager could see or lift it.
ALTER TABLE posting_blocks DROP CONSTRAINT posting_blocks_pkey;
ALTER TABLE posting_blocks ALTER COLUMN user_id SET NOT NULL;
CREATE UNIQUE INDEX posting_blocks_once
    ON posting_blocks (user_id, coalesce(store_id, '00000000-0000-0000-0000-000000000000'::uuid));

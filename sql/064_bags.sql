-- 064_bags: every bag handed over (issue 47, "Bags"). Packing an order records its bags, each
-- with its temperature zone and a short code for its barcode; staff stage a bag by scanning its
-- code into one of the store's places (a shelf, the fridge, the freezer, a locker, a kerb bay);
-- the desk hands an order over only when every bag is counted out.

-- The places a store keeps bags in until they are collected, configured by its manager. A store
-- without places hands orders over as before (ready once packed).
CREATE TABLE staging_places (
    id        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id  uuid NOT NULL REFERENCES stores (id),
    name      text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    kind      text NOT NULL CHECK (kind IN ('shelf', 'fridge', 'freezer', 'locker', 'kerb_bay')),
    position  integer NOT NULL CHECK (position BETWEEN 0 AND 99),
    UNIQUE (store_id, name)
);

-- An order's bags, numbered 1..n (at most 50), written in the transaction that packs it. The code
-- is the order's number and the bag's ("1042-2"): unique as order numbers are, short enough for
-- a Code 128 label and for typing when a scanner fails. A place removed by its manager cannot be
-- one that holds a bag not yet handed over (`Bags.setPlaces` checks under the places' locks).
CREATE TABLE order_bags (
    store_id        uuid NOT NULL REFERENCES stores (id),
    order_id        uuid NOT NULL REFERENCES orders (id),
    number          integer NOT NULL CHECK (number BETWEEN 1 AND 50),
    zone            text NOT NULL CHECK (zone IN ('ambient', 'chilled', 'frozen')),
    code            text NOT NULL UNIQUE CHECK (code ~ '^[0-9]{1,18}-[0-9]{1,2}$'),
    place_id        uuid REFERENCES staging_places (id) ON DELETE SET NULL,
    staged_at       timestamptz,
    handed_over_at  timestamptz,
    PRIMARY KEY (order_id, number),
    CHECK ((place_id IS NULL) = (staged_at IS NULL) OR handed_over_at IS NOT NULL)
);
CREATE INDEX order_bags_place ON order_bags (place_id) WHERE place_id IS NOT NULL;
CREATE INDEX order_bags_store ON order_bags (store_id);

-- Orders packed before bags were recorded hold one ambient bag, as an order packed without
-- naming its bags does from now on.
INSERT INTO order_bags (store_id, order_id, number, zone, code, handed_over_at)
SELECT o.store_id, o.id, 1, 'ambient', o.number || '-1', o.completed_at
FROM orders o WHERE o.packaged_at IS NOT NULL;

-- order_view gains the order's bags at its end, as JSON text: whether its store keeps staging
-- places, and each bag (number, zone, code, place, when staged and handed over).
ALTER TYPE order_view ADD ATTRIBUTE bags_json text;

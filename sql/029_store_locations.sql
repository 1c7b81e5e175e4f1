-- 029_store_locations: a store may say where it is (issue 26), so the best price of a scanned
-- barcode can say how far each store is from the customer. Degrees (WGS 84), both or neither;
-- a store opened without one has none. NaN is above every number in PostgreSQL, so the range
-- checks refuse it too.

ALTER TABLE stores
    ADD COLUMN latitude double precision CHECK (latitude BETWEEN -90 AND 90),
    ADD COLUMN longitude double precision CHECK (longitude BETWEEN -180 AND 180),
    ADD CONSTRAINT stores_location_whole CHECK ((latitude IS NULL) = (longitude IS NULL));

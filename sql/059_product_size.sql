-- A product's pack size as its shelf label says it ("500 g", "6 × 330 ml", "1 L"), issue 46:
-- shown beside its name in the console and the shop, so "Milk" and "Milk" are told apart. Text,
-- not a number and a unit: a shop writes it the way its customers read it. Empty when not given.
ALTER TABLE products ADD COLUMN size text NOT NULL DEFAULT '' CHECK (length(size) <= 40);

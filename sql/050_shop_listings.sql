-- 050: what the shop's listings read, so a page does not count or price the whole range (issue 45).
--
-- The category counts, kept as products and stock change.
-- Every search page and the shop's front page list the categories with how many products each
-- holds at the store. Counted on each page, that was every product of the catalogue checked
-- against the store's stock: 75 to 260 ms of PostgreSQL's time a page at 100,000 products, most
-- of a search page's cost. Kept here instead, a row per store and category (and per category
-- over the whole catalogue, store_id NULL), changed by the statements that change what counts:
-- stock rows added or removed (a store starts or stops carrying a product), products added,
-- recategorised, discontinued or restored (category_counts_*.trigger.sql). Checkout changes
-- quantities, never which products a store carries, so it touches none of this. A count has no
-- CHECK (>= 0): PostgreSQL checks the row an upsert proposes, the delta, before it meets the row
-- it adds to.
CREATE TABLE category_counts (
    store_id      uuid REFERENCES stores (id) ON DELETE CASCADE,
    category      text NOT NULL,
    product_count int8 NOT NULL,
    UNIQUE NULLS NOT DISTINCT (store_id, category)
);

INSERT INTO category_counts (store_id, category, product_count)
SELECT NULL, p.category, count(*)
FROM products p
WHERE NOT p.discontinued AND p.category <> ''
GROUP BY p.category;

INSERT INTO category_counts (store_id, category, product_count)
SELECT s.store_id, p.category, count(*)
FROM stock s JOIN products p ON p.id = s.product_id
WHERE NOT p.discontinued AND p.category <> ''
GROUP BY s.store_id, p.category;

-- The offers, cheapest first: a store's sales in price order, so the first page of its offers
-- reads its first few dozen sales (store_sale_prices_at, inlined) instead of pricing all of them
-- and sorting (100 ms to 4 ms at 5,000 sales).
CREATE INDEX store_sales_store_price ON store_sales (store_id, price_amount, product_id);

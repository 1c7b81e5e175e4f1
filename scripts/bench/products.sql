-- psql script for the benchmarks: products :first to :last of the benchmark store (bench.product(n),
-- SKU CKBENCH-n), each with 1,000,000 on hand so checkouts never run short. The setup
-- (common.sh) makes the first --products; checkout-bench's scaling phase tops them up.
BEGIN;
INSERT INTO products (id, sku, name, brand, category, price_amount, currency)
SELECT bench.product(g), 'CKBENCH-' || g, 'Benchmark product ' || g, 'Bench', 'Category ' || (g % 20),
       100 + (g * 37) % 50000, 'JMD'
FROM generate_series(:first, :last) g;
INSERT INTO stock (store_id, product_id, on_hand)
SELECT bench.store(), bench.product(g), 1000000 FROM generate_series(:first, :last) g;
COMMIT;

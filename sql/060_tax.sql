-- 060_tax: tax on the receipt (issue 48). Prices stay tax-inclusive, as shops in the UK and
-- Jamaica show them; a receipt says how much of each price is tax, per rate.
--
-- A store is in a jurisdiction (its tax authority: VAT in the United Kingdom, GCT in Jamaica)
-- and may have a registration number to print; a product has a tax class; a jurisdiction maps
-- each class to a rate, with the date it applies from (a rate change is a new row, never an
-- edit). Each order line keeps its class and rate from the moment it was written
-- (`order_line_tax`, a trigger like the minimum age's), so a later rate change never changes a
-- past order: the receipt's figures are computed from what the lines kept.

CREATE TABLE tax_jurisdictions (
    code      text PRIMARY KEY CHECK (code ~ '^[A-Z]{2}$'),
    tax_name  text NOT NULL CHECK (length(tax_name) BETWEEN 1 AND 10)
);

CREATE TABLE tax_rates (
    jurisdiction  text NOT NULL REFERENCES tax_jurisdictions (code),
    tax_class     text NOT NULL CHECK (tax_class IN ('standard', 'reduced', 'zero', 'exempt')),
    -- Basis points: 2000 is 20 %. Zero and exempt are both 0 %; a receipt names them apart.
    rate_bp       integer NOT NULL CHECK (rate_bp BETWEEN 0 AND 10000),
    valid_from    date NOT NULL,
    PRIMARY KEY (jurisdiction, tax_class, valid_from),
    CHECK (tax_class NOT IN ('zero', 'exempt') OR rate_bp = 0)
);

-- The two the demo and the seeds' shops need. Jamaica has no reduced rate of GCT: a product
-- classed reduced there is charged the standard rate. Basic foods are zero-rated in both.
INSERT INTO tax_jurisdictions (code, tax_name) VALUES ('GB', 'VAT'), ('JM', 'GCT');
INSERT INTO tax_rates (jurisdiction, tax_class, rate_bp, valid_from) VALUES
    ('GB', 'standard', 2000, '2011-01-04'), ('GB', 'reduced', 500, '2011-01-04'),
    ('GB', 'zero', 0, '2011-01-04'), ('GB', 'exempt', 0, '2011-01-04'),
    ('JM', 'standard', 1500, '2000-01-01'), ('JM', 'reduced', 1500, '2000-01-01'),
    ('JM', 'zero', 0, '2000-01-01'), ('JM', 'exempt', 0, '2000-01-01');

-- A store without a jurisdiction shows no tax (a shop that is not registered). A new store
-- takes its currency's (`store_tax_default`): GBP is the UK's, JMD Jamaica's.
ALTER TABLE stores
    ADD COLUMN tax_jurisdiction text REFERENCES tax_jurisdictions (code),
    ADD COLUMN tax_number text CHECK (length(tax_number) BETWEEN 1 AND 40);
UPDATE stores SET tax_jurisdiction = CASE currency WHEN 'GBP' THEN 'GB' WHEN 'JMD' THEN 'JM' END;

ALTER TABLE products ADD COLUMN tax_class text NOT NULL DEFAULT 'standard'
    CHECK (tax_class IN ('standard', 'reduced', 'zero', 'exempt'));

-- Null at a store without a jurisdiction, and on lines written before this migration (their
-- receipts show no tax rather than a rate they were never charged at).
ALTER TABLE order_lines
    ADD COLUMN tax_class text CHECK (tax_class IN ('standard', 'reduced', 'zero', 'exempt')),
    ADD COLUMN tax_rate_bp integer CHECK (tax_rate_bp BETWEEN 0 AND 10000),
    ADD CONSTRAINT order_lines_tax_together CHECK ((tax_class IS NULL) = (tax_rate_bp IS NULL));

-- order_view (migration 017) gains the store's tax at its end, as JSON text: its name, number,
-- and the seller's name and address a VAT receipt prints.
ALTER TYPE order_view ADD ATTRIBUTE tax_json text;

-- An order's tax per rate as its data export gives it (issue 48): the same figures as
-- `getOrder`'s `tax.rates` (TaxBreakdown in Swift, which the order's page and receipt use), so a
-- customer's export, an accountant's import and the receipt agree to the minor unit
-- (`OrderTaxTests` compares the two on orders with coupon shares and short picks).
--
-- The one rounding rule, per rate and not per line: gross = what the rate's lines cost now
-- (order_line_amount of what each holds, after its coupon share); tax = gross × rate ÷ (1 +
-- rate), rounded half up to the minor unit; net = gross − tax. Zero-rated and exempt are both 0 %
-- and listed apart; highest rate first, exempt last. Null when the store is in no jurisdiction,
-- or when a line that costs something kept no tax (written before tax was recorded): no guess.
CREATE OR REPLACE FUNCTION order_tax_json(p_order uuid) RETURNS json LANGUAGE sql STABLE AS $$
    WITH lines AS (
        SELECT l.tax_rate_bp AS rate, l.tax_class = 'exempt' AS exempt, l.tax_class IS NULL OR l.tax_rate_bp IS NULL AS untaxed,
               order_line_amount(l, held_quantity(l, o.packaged_at IS NOT NULL)) AS gross
        FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.id = p_order
    ), rates AS (
        SELECT rate, exempt, sum(gross)::int8 AS gross
        FROM lines WHERE gross > 0
        GROUP BY rate, exempt
    ), taxed AS (
        SELECT rate, exempt, gross,
               CASE WHEN gross > 0 AND rate > 0 THEN
                   div(gross, 10000 + least(rate, 10000)) * least(rate, 10000)
                   + div(mod(gross, 10000 + least(rate, 10000)) * least(rate, 10000) + (10000 + least(rate, 10000)) / 2,
                         10000 + least(rate, 10000))
               ELSE 0 END::int8 AS tax
        FROM rates
    )
    SELECT json_build_object(
               'name', j.tax_name,
               'rates', json_agg(json_build_object(
                   'rateBasisPoints', t.rate, 'exempt', t.exempt,
                   'net', json_build_object('amount', t.gross - t.tax, 'currency', o.currency),
                   'tax', json_build_object('amount', t.tax, 'currency', o.currency),
                   'gross', json_build_object('amount', t.gross, 'currency', o.currency))
                   ORDER BY CASE WHEN t.exempt THEN -1 ELSE t.rate END DESC, t.gross DESC),
               'tax', json_build_object('amount', sum(t.tax)::int8, 'currency', o.currency))
    FROM orders o
    JOIN stores s ON s.id = o.store_id
    JOIN tax_jurisdictions j ON j.code = s.tax_jurisdiction
    CROSS JOIN taxed t
    WHERE o.id = p_order AND NOT EXISTS (SELECT 1 FROM lines WHERE untaxed AND gross > 0)
    GROUP BY j.tax_name, o.currency
$$;

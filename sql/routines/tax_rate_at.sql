-- The rate in basis points of `p_class` in `p_jurisdiction` on `p_day`: the newest rate in force
-- then; null when the jurisdiction has none for that class yet.
CREATE OR REPLACE FUNCTION tax_rate_at(p_jurisdiction text, p_class text, p_day date) RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT r.rate_bp FROM tax_rates r
    WHERE r.jurisdiction = p_jurisdiction AND r.tax_class = p_class AND r.valid_from <= p_day
    ORDER BY r.valid_from DESC
    LIMIT 1
$$;

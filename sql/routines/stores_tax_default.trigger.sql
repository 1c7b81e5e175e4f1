-- A new store's jurisdiction from its currency (store_tax_default).
CREATE OR REPLACE TRIGGER stores_tax_default BEFORE INSERT ON stores
FOR EACH ROW EXECUTE FUNCTION store_tax_default();

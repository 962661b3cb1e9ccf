-- The seller's particulars every invoice prints (VAT Directive art. 226): legal name,
-- address, VAT identification number and tax code, as a JSON object; NULL until set.
ALTER TABLE settings ADD COLUMN seller TEXT;

-- Each invoice keeps the seller's particulars as they stood when it was issued, never
-- changed after (the settings may change; an issued invoice does not).
ALTER TABLE invoices ADD COLUMN seller TEXT;
CREATE TRIGGER invoices_seller_sealed BEFORE UPDATE OF seller ON invoices
WHEN OLD.seller IS NOT NEW.seller
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are immutable: the seller printed on them never changes');
END;

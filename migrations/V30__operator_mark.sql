-- The operator's mark a Croatian receipt prints (and any invoice may): a short code per staff
-- member, unique among them, set by an admin; each invoice keeps the mark of whoever issued
-- it, never changed after.
ALTER TABLE users ADD COLUMN operator_mark TEXT;
CREATE UNIQUE INDEX users_operator_mark ON users (operator_mark COLLATE NOCASE)
    WHERE operator_mark IS NOT NULL;

ALTER TABLE invoices ADD COLUMN operator_mark TEXT;
CREATE TRIGGER invoices_operator_mark_sealed BEFORE UPDATE OF operator_mark ON invoices
WHEN OLD.operator_mark IS NOT NEW.operator_mark
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are immutable: the operator who issued one never changes');
END;

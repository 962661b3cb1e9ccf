-- A staff member's own OIB (Croatia): sent to CIS as the operator (`OibOper`) on the receipts
-- they issue, instead of the configuration's one operator.
ALTER TABLE users ADD COLUMN oib TEXT;

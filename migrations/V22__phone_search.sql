-- A guest is found by phone number however it was written ("+385 91 234 5678" and
-- "091 234 5678"): every stored number gains its key (its last nine digits, computed by
-- the code's own rule, innkeep_phone_key, registered on every connection), indexed.
ALTER TABLE guests ADD COLUMN phone_key TEXT;
UPDATE guests SET phone_key = innkeep_phone_key(phone) WHERE phone IS NOT NULL;
CREATE INDEX guests_phone_key ON guests (phone_key) WHERE phone_key IS NOT NULL;

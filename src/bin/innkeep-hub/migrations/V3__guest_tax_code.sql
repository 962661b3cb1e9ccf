-- A guest's Italian codice fiscale in the read model (issue 32), read from the snapshot every
-- guest row keeps.
ALTER TABLE guests
    ADD COLUMN tax_code text GENERATED ALWAYS AS (data->>'tax_code') STORED;

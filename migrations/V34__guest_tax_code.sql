-- A guest's Italian codice fiscale (issue 32): what an Italian invoice or receipt names a
-- private buyer by. Stored upper-case, checked by its check character.
ALTER TABLE guests ADD COLUMN tax_code TEXT;

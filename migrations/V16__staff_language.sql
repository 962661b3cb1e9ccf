-- The language a staff member's desk pages are in: `en`, `it` or `hr`; NULL follows the
-- browser's Accept-Language.
ALTER TABLE users ADD COLUMN language TEXT;

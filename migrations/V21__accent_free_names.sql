-- Guest names are searchable without their accents ("dvorak" finds Dvořák, "wojcik" finds
-- Wójcik): every stored name key gains its transliterated form, computed by the code's own
-- rule (innkeep_name_key, registered on every connection). The search index follows through
-- its trigger on name_key.
UPDATE guests SET name_key = innkeep_name_key(first_name, last_name)
 WHERE name_key IS NOT innkeep_name_key(first_name, last_name);

-- Guest search by name through a trigram index (FTS5), so that `GET /guests?name=` finds
-- substrings without reading every guest. The index's rowids come from guest_search_rows:
-- an INTEGER PRIMARY KEY keeps its values under VACUUM, which the implicit rowid of
-- guests does not promise. Triggers keep both in step with guests, in the same
-- transaction as the change.
CREATE TABLE guest_search_rows (
    n        INTEGER PRIMARY KEY,
    guest_id TEXT    NOT NULL UNIQUE
) STRICT;

CREATE VIRTUAL TABLE guest_names USING fts5(
    name_key, content = '', contentless_delete = 1, tokenize = 'trigram'
);

INSERT INTO guest_search_rows (guest_id) SELECT id FROM guests ORDER BY id;
INSERT INTO guest_names (rowid, name_key)
    SELECT m.n, g.name_key FROM guest_search_rows m JOIN guests g ON g.id = m.guest_id;

CREATE TRIGGER guests_search_insert AFTER INSERT ON guests BEGIN
    INSERT INTO guest_search_rows (guest_id) VALUES (new.id);
    INSERT INTO guest_names (rowid, name_key)
        VALUES ((SELECT n FROM guest_search_rows WHERE guest_id = new.id), new.name_key);
END;

CREATE TRIGGER guests_search_update AFTER UPDATE OF name_key ON guests
WHEN old.name_key IS NOT new.name_key BEGIN
    DELETE FROM guest_names
        WHERE rowid = (SELECT n FROM guest_search_rows WHERE guest_id = new.id);
    INSERT INTO guest_names (rowid, name_key)
        VALUES ((SELECT n FROM guest_search_rows WHERE guest_id = new.id), new.name_key);
END;

CREATE TRIGGER guests_search_delete AFTER DELETE ON guests BEGIN
    DELETE FROM guest_names
        WHERE rowid = (SELECT n FROM guest_search_rows WHERE guest_id = old.id);
    DELETE FROM guest_search_rows WHERE guest_id = old.id;
END;

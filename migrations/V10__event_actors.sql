-- Who caused each event (API.md section 8): JSON {type, id, name}. Events recorded before
-- this version have none.
ALTER TABLE events ADD COLUMN actor TEXT;

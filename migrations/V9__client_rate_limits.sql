-- A client's own request rate limit (API.md section 1); NULL uses [limits] from the
-- configuration. Both or neither are set.
ALTER TABLE oauth_clients ADD COLUMN rate_per_second INTEGER CHECK (rate_per_second BETWEEN 1 AND 100000);
ALTER TABLE oauth_clients ADD COLUMN rate_burst INTEGER CHECK (rate_burst BETWEEN 1 AND 100000);

-- The party in detail: each child's age (a JSON array, one per child; NULL when not given),
-- and the extra beds and cots housekeeping prepares.
ALTER TABLE reservations ADD COLUMN children_ages TEXT;
ALTER TABLE reservations ADD COLUMN extra_beds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reservations ADD COLUMN cots INTEGER NOT NULL DEFAULT 0;

-- The numbering hold (issue 17). A restored database may be older than the last invoice: the
-- invoices and fiscal receipts issued after the backup exist on paper and at the authority,
-- but not here. After a restore this one row stops every invoice until an admin confirms the
-- next number of each series (`innkeep numbering confirm`); it names when and why.
CREATE TABLE numbering_hold (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    since  TEXT NOT NULL,
    reason TEXT NOT NULL
) STRICT;

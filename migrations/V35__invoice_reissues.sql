-- A corrected invoice replacing one a credit note reversed (issue 32: an invoice SdI
-- discarded, or an e-invoice refused after delivery, is reversed and issued again to the
-- corrected buyer). At most one replacement per reversed invoice.
ALTER TABLE invoices ADD COLUMN reissues_invoice_id TEXT REFERENCES invoices (id);
CREATE UNIQUE INDEX invoices_reissues ON invoices (reissues_invoice_id)
    WHERE reissues_invoice_id IS NOT NULL;

-- The invoice page says which credit note reversed an invoice. Only credit notes carry
-- `corrects_invoice_id`, so a partial index keeps that lookup off the whole invoices table.
CREATE INDEX invoices_corrected_by ON invoices (corrects_invoice_id)
    WHERE corrects_invoice_id IS NOT NULL;

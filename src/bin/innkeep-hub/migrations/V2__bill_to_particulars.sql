-- The buyer's particulars in the read model (issue 30): whether an invoice went to a person
-- or a business, and the business's VAT number (`vat_id`, or `tax_id` as invoices issued
-- before it said), read from the snapshot every invoice row keeps.
ALTER TABLE invoices
    ADD COLUMN bill_to_kind text
        GENERATED ALWAYS AS (data->'bill_to'->>'kind') STORED,
    ADD COLUMN bill_to_vat_id text
        GENERATED ALWAYS AS (coalesce(data->'bill_to'->>'vat_id', data->'bill_to'->>'tax_id')) STORED;
CREATE INDEX invoices_by_buyer_vat_id ON invoices (property, bill_to_vat_id)
    WHERE bill_to_vat_id IS NOT NULL;

-- A payment on a credit note is money given back: recorded as such (kind 'refund', its
-- amount still above zero), never as a negative payment.
ALTER TABLE payments ADD COLUMN kind TEXT NOT NULL DEFAULT 'payment'
    CHECK (kind IN ('payment', 'refund'));

-- A credit note's paid amount goes from zero down to its (negative) total as it gives money
-- back; an invoice's only ever goes up. Everything else about an issued invoice stays fixed.
DROP TRIGGER invoices_immutable;
CREATE TRIGGER invoices_immutable BEFORE UPDATE ON invoices
WHEN OLD.id IS NOT NEW.id OR OLD.series IS NOT NEW.series OR OLD.seq IS NOT NEW.seq
  OR OLD.number IS NOT NEW.number OR OLD.kind IS NOT NEW.kind
  OR OLD.reservation_id IS NOT NEW.reservation_id OR OLD.guest_id IS NOT NEW.guest_id
  OR OLD.bill_to IS NOT NEW.bill_to OR OLD.issue_date IS NOT NEW.issue_date
  OR OLD.currency IS NOT NEW.currency OR OLD.payment_method IS NOT NEW.payment_method
  OR OLD.net IS NOT NEW.net OR OLD.tax IS NOT NEW.tax OR OLD.gross IS NOT NEW.gross
  OR OLD.corrects_invoice_id IS NOT NEW.corrects_invoice_id OR OLD.reason IS NOT NEW.reason
  OR OLD.created_at IS NOT NEW.created_at
  OR (OLD.status IS NOT NEW.status AND NOT (
        (OLD.status = 'issued' AND NEW.status IN ('paid', 'cancelled'))
     OR (OLD.status = 'paid' AND NEW.status = 'cancelled')))
  OR (OLD.kind = 'invoice' AND NEW.paid_amount < OLD.paid_amount)
  OR (OLD.kind = 'credit_note' AND NEW.paid_amount > OLD.paid_amount)
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are immutable: only status, payments and the fiscal record may change');
END;

-- A transaction line's amount_cents is the line's total: quantity × unit price, negative for a
-- return line, so an order's lines add up to its total_cents. The demo seed wrote a sale line's
-- unit price and a return line's total; the seed now writes totals, and this makes the sale lines
-- already written totals too (it was the only writer of these rows; a copy on a member's account
-- came from it).
UPDATE store_receipt_items SET amount_cents = amount_cents * quantity WHERE quantity > 1;
UPDATE transaction_items SET amount_cents = amount_cents * quantity WHERE quantity > 1;

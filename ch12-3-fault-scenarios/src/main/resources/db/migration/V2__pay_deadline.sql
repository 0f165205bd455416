-- When the pay that claimed an order gives up, on the database's clock (one clock for every process): a charge of
-- that pay can reach the provider until then, so a process that adopts the claim of a dead one asks the provider only
-- after it (archlab.order.Reconciler#adoptOrphans). NULL: a pay without a deadline; its adopter asks at once.
ALTER TABLE orders ADD COLUMN pay_deadline timestamptz;

-- ch12-1's order table in PostgreSQL (-Dlab.store=postgres), for archlab.order.PostgresOrderTable.
-- Flyway runs it into a fresh schema for every fixture (archlab.db.LabDatabase), so no run sees another's rows.

-- The one row that stands for the table's lock. Every unit of work of the service starts with
--   SELECT id FROM order_table_lock WHERE id = 1 FOR UPDATE
-- and holds that row lock until it commits: ch12-1's global lock, kept where real services keep it.
CREATE TABLE order_table_lock (
    id smallint PRIMARY KEY CHECK (id = 1)
);
INSERT INTO order_table_lock (id) VALUES (1);

-- ord-000001 onwards, as the in-memory table numbers them (more digits past 999999, never truncated).
CREATE SEQUENCE order_number;

CREATE TABLE orders (
    number      bigint PRIMARY KEY DEFAULT nextval('order_number'),
    id          text NOT NULL UNIQUE
                GENERATED ALWAYS AS ('ord-' || lpad(number::text, greatest(6, length(number::text)), '0')) STORED,
    customer_id text NOT NULL CHECK (customer_id <> ''),
    status      text NOT NULL CHECK (status IN ('CREATED', 'PAID')),
    total_cents bigint NOT NULL CHECK (total_cents >= 0),
    version     integer NOT NULL CHECK (version >= 0)
);
ALTER SEQUENCE order_number OWNED BY orders.number;

CREATE TABLE order_items (
    order_number     bigint NOT NULL REFERENCES orders (number),
    line_no          integer NOT NULL,
    sku              text NOT NULL CHECK (sku <> ''),
    quantity         integer NOT NULL CHECK (quantity > 0),
    unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
    PRIMARY KEY (order_number, line_no)
);

-- ch12-2's orders and outbox in PostgreSQL (-Dlab.store=postgres), for archlab.order.PostgresOrderTable and
-- archlab.order.PostgresOutbox. Flyway runs it into a fresh schema for every fixture (archlab.db.LabDatabase).
-- Against ch12-1's V1: no lock row (no transaction is held across a downstream call any more), a PAYING status,
-- the pay's idempotency key kept unique, and the outbox as a table the PAID update commits with.

-- ord-000001 onwards, as the in-memory table numbers them (more digits past 999999, never truncated).
CREATE SEQUENCE order_number;

CREATE TABLE orders (
    number      bigint PRIMARY KEY DEFAULT nextval('order_number'),
    id          text NOT NULL UNIQUE
                GENERATED ALWAYS AS ('ord-' || lpad(number::text, greatest(6, length(number::text)), '0')) STORED,
    -- the key every charge of this order carries (ChargeKey): one per order, never shared
    pay_key     text NOT NULL UNIQUE
                GENERATED ALWAYS AS ('pay:ord-' || lpad(number::text, greatest(6, length(number::text)), '0')) STORED,
    customer_id text NOT NULL CHECK (customer_id <> ''),
    status      text NOT NULL CHECK (status IN ('CREATED', 'PAYING', 'PAID')),
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

-- One row per notification, from the PAID update's transaction to its delivery (kept DELIVERED, so a message id is
-- never appended twice). Each row has an owner: the lease key (archlab.order.ProcessLease, a session-level advisory
-- lock) of the process that appended or last claimed it; its instants are readings of that process's clock
-- (nanoseconds). A relay works its own rows and those of an owner whose lease is gone (PostgresOutbox).
CREATE TABLE outbox (
    seq                  bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    message_id           text PRIMARY KEY,
    order_id             text NOT NULL REFERENCES orders (id),
    state                text NOT NULL CHECK (state IN ('PENDING', 'IN_FLIGHT', 'DELIVERED', 'PARKED')),
    attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    owner                bigint NOT NULL,
    appended_nanos       bigint NOT NULL,
    retrying_since_nanos bigint NOT NULL,
    due_nanos            bigint NOT NULL,
    claimed_nanos        bigint,            -- when its owner last claimed it (a row stuck IN_FLIGHT is claimed again)
    adopted              boolean NOT NULL DEFAULT false,
    last_error           text,
    redrives             integer NOT NULL DEFAULT 0
);
-- what a relay's claim scans: the open rows, oldest first
CREATE INDEX outbox_open ON outbox (seq) WHERE state <> 'DELIVERED';

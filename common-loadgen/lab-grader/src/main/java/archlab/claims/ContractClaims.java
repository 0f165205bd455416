package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.claims.OrderPortException.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Chapter 12.1's contract: what every solution must keep, whatever it changes inside — totals, status and version,
 * distinct ids, not-found, invalid state, and a clear error that changes nothing for every bad input. The trap: a
 * refactor that makes the service fast by breaking what it answers. Passes on every checkpoint.
 */
final class ContractClaims {

    private ContractClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.1-create-get", Suite.CONTRACT_12_1).section("12.1 订单服务").points(2).load(false)
                        .statement("create answers CREATED with version 0 and the total of its lines; get answers the same order; ids are distinct")
                        .needs("an order of two lines (seeded skus, quantities 1..3, unit prices 500..9999 cents; nominally 2 x 1999 + 1 x 500 = 4498 cents):"
                                + " status CREATED, version 0, total = the lines' sum, get equal to create, two ids different")
                        .judge(ContractClaims::createAndGet).build(),
                Claim.builder("12.1-pay", Suite.CONTRACT_12_1).section("12.1 订单服务").points(2).load(false)
                        .statement("pay charges the total once and answers PAID with a higher version; paying again is an invalid-state error that charges nothing")
                        .needs("the two-line order: pay answered PAID, version > 0, isPaid, exactly one charge of its total; second pay INVALID_STATE, still one charge")
                        .judge(ContractClaims::payOnce).build(),
                Claim.builder("12.1-not-found", Suite.CONTRACT_12_1).section("12.1 订单服务").points(1).load(false)
                        .statement("get and pay of an unknown id answer not-found and touch no downstream")
                        .needs("a seeded unknown id: NOT_FOUND for both (not REJECTED: the pay must look the order up); no reservation, no charge, no notification")
                        .judge(ContractClaims::notFound).build(),
                Claim.builder("12.1-bad-input", Suite.CONTRACT_12_1).section("12.1 订单服务").points(2).load(false)
                        .statement("every bad input gets a clear error and changes nothing")
                        .needs("INVALID_INPUT (NOT_FOUND allowed for a missing id) for each of 11 bad requests; no reservation, charge or notification")
                        .judge(ContractClaims::badInput).build());
    }

    /** @return a deadline of 0.8..1.2 s (nominally 1 s) */
    private static Duration timeout(ClaimInputs in) {
        return in.millis("deadline", 800, 1_200);
    }

    /** @return Σ quantity × unit price of {@code lines} */
    static long total(List<OrderPort.Line> lines) {
        return lines.stream().mapToLong(l -> l.quantity() * l.unitPriceCents()).sum();
    }

    static ClaimVerdict createAndGet(Checkpoint checkpoint, ClaimInputs in) {
        List<OrderPort.Line> lines = in.twoLines();
        long total = total(lines);
        try (Bench bench = Bench.book(checkpoint, in)) {
            OrderPort.OrderView created = bench.port.create(request(timeout(in)), in.customer(), lines);
            OrderPort.OrderView read = bench.port.get(request(timeout(in)), created.id());
            OrderPort.OrderView other = bench.port.create(request(timeout(in)), in.customer(), lines);
            boolean holds = created.status().equals("CREATED") && created.version() == 0 && created.totalCents() == total
                    && read.equals(created) && !other.id().equals(created.id());
            return ClaimVerdict.of(holds, "lines " + lines + " (total " + total + " cents): created " + created + ", get " + read
                    + ", second id " + other.id());
        }
    }

    static ClaimVerdict payOnce(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        List<OrderPort.Line> lines = in.twoLines();
        long total = total(lines);
        Duration timeout = timeout(in);
        try (Bench bench = Bench.book(checkpoint, in)) {
            OrderPort.OrderView created = bench.port.create(request(timeout), in.customer(), lines);
            Bench.Timed<OrderPort.OrderView> pay = Bench.timed(() -> bench.port.pay(request(timeout), created.id()));
            OrderPort.OrderView paid = pay.value();
            String again;
            try {
                again = "answered " + bench.port.pay(request(timeout), created.id());
            } catch (OrderPortException e) {
                again = e.kind().name();
            }
            long charges = bench.chargesFor(created.id());
            long cents = bench.payments.ledger().chargesFor(created.id()).stream().mapToLong(c -> c.amountCents()).sum();
            boolean holds = paid != null && paid.status().equals("PAID") && paid.version() > created.version()
                    && bench.port.isPaid(created.id()) && charges == 1 && cents == total && again.equals(Kind.INVALID_STATE.name());
            return ClaimVerdict.of(holds, String.format(Locale.ROOT, "order of %d cents: pay answered %s; isPaid=%s; second pay %s; charges %d totalling %d cents",
                    total, paid != null ? paid : Bench.answer(pay), bench.port.isPaid(created.id()), again, charges, cents));
        }
    }

    static ClaimVerdict notFound(Checkpoint checkpoint, ClaimInputs in) {
        String unknown = "no-" + in.customer().substring(2);
        try (Bench bench = Bench.book(checkpoint, in)) {
            String get = kindOf(() -> bench.port.get(request(timeout(in)), unknown));
            String pay = kindOf(() -> bench.port.pay(request(timeout(in)), unknown));
            String touched = touched(bench);
            boolean holds = get.equals("NOT_FOUND") && pay.equals("NOT_FOUND") && touched.isEmpty();
            return ClaimVerdict.of(holds, "id " + unknown + ": get " + get + ", pay " + pay
                    + (touched.isEmpty() ? ", no downstream touched" : ", but " + touched));
        }
    }

    static ClaimVerdict badInput(Checkpoint checkpoint, ClaimInputs in) {
        Duration t = timeout(in);
        String c = in.customer();
        String s = in.sku();
        long price = in.unitPriceCents();
        try (Bench bench = Bench.book(checkpoint, in)) {
            List<String> wrong = new ArrayList<>();
            List<OrderPort.Line> nullLine = Arrays.asList((OrderPort.Line) null);
            bad(wrong, "blank customer", () -> bench.port.create(request(t), " ", in.twoLines()), false);
            bad(wrong, "null customer", () -> bench.port.create(request(t), null, in.twoLines()), false);
            bad(wrong, "null lines", () -> bench.port.create(request(t), c, null), false);
            bad(wrong, "no lines", () -> bench.port.create(request(t), c, List.of()), false);
            bad(wrong, "a null line", () -> bench.port.create(request(t), c, nullLine), false);
            bad(wrong, "blank sku", () -> bench.port.create(request(t), c, List.of(new OrderPort.Line(" ", 1, price))), false);
            bad(wrong, "quantity 0", () -> bench.port.create(request(t), c, List.of(new OrderPort.Line(s, 0, price))), false);
            bad(wrong, "negative price", () -> bench.port.create(request(t), c, List.of(new OrderPort.Line(s, 1, -price))), false);
            bad(wrong, "a total past Long.MAX_VALUE",
                    () -> bench.port.create(request(t), c, List.of(new OrderPort.Line(s, Integer.MAX_VALUE, Long.MAX_VALUE))), false);
            bad(wrong, "null id to get", () -> bench.port.get(request(t), null), true);
            bad(wrong, "null id to pay", () -> bench.port.pay(request(t), null), true);
            String touched = touched(bench);
            boolean holds = wrong.isEmpty() && touched.isEmpty();
            return ClaimVerdict.of(holds, (wrong.isEmpty() ? "11 bad requests, each a clear error" : "unclear: " + String.join("; ", wrong))
                    + (touched.isEmpty() ? "; no downstream touched" : "; but " + touched));
        }
    }

    private static void bad(List<String> wrong, String what, Runnable call, boolean notFoundAllowed) {
        String kind = kindOf(call);
        boolean clear = kind.equals("INVALID_INPUT") || (notFoundAllowed && kind.equals("NOT_FOUND"));
        if (!clear) {
            wrong.add(what + " -> " + kind);
        }
    }

    /** @return the kind of error {@code call} answered, "no error" when it succeeded */
    private static String kindOf(Runnable call) {
        try {
            call.run();
            return "no error";
        } catch (OrderPortException e) {
            return e.kind().name() + (e.kind() == Kind.FAILED ? " (" + e.getCause() + ")" : "");
        }
    }

    private static String touched(Bench bench) {
        List<String> out = new ArrayList<>();
        if (bench.inventory.reservations() > 0) {
            out.add(bench.inventory.reservations() + " reservations");
        }
        if (bench.payments.ledger().charges() > 0) {
            out.add(bench.payments.ledger().charges() + " charges");
        }
        if (bench.notifier.deliveries() > 0) {
            out.add(bench.notifier.deliveries() + " notifications");
        }
        return String.join(", ", out);
    }
}

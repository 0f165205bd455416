package archlab.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A made-up regression, for the gate's own check in CI: a copy of a saved baseline table ({@link BaselineTable}) with
 * every row's P99 multiplied by a factor. The trap it closes: a gate that is only ever run on the table it was built
 * from passes by construction; fed a table 25 % worse, it must fail.
 *
 * <p>Usage: {@code java archlab.compare.MadeUpRegression table.json 1.25 out.json}; exit 0, or 2 with a message on bad
 * input. Thread-safety: stateless.
 */
public final class MadeUpRegression {

    private MadeUpRegression() {
    }

    /** Runs as the command line does; @return the exit status */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 3) {
            err.println("usage: MadeUpRegression table.json FACTOR out.json (e.g. 1.25: every P99 25 % worse)");
            return P99Gate.BAD_INPUT;
        }
        double factor;
        try {
            factor = Double.parseDouble(args[1].trim());
        } catch (NumberFormatException e) {
            factor = Double.NaN;
        }
        if (!(factor > 0) || Double.isInfinite(factor)) {
            err.println("FACTOR must be a number > 0 such as 1.25, was '" + args[1] + "'");
            return P99Gate.BAD_INPUT;
        }
        try {
            JsonNode table = new ObjectMapper().readTree(Path.of(args[0]).toFile());
            if (!BaselineTable.KIND.equals(table.path("kind").asText()) || !table.path("rows").isArray()) {
                err.println("not a baseline table (kind " + BaselineTable.KIND + "): " + args[0]);
                return P99Gate.BAD_INPUT;
            }
            for (JsonNode row : table.path("rows")) {
                ObjectNode latency = (ObjectNode) row.path("latency");
                latency.put("p99Micros", Math.round(latency.path("p99Micros").asLong() * factor));
            }
            Path target = Path.of(args[2]);
            Files.createDirectories(target.toAbsolutePath().getParent());
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(target.toFile(), table);
            out.printf(java.util.Locale.ROOT, "%s: every P99 of %s × %.2f%n", target, args[0], factor);
            return 0;
        } catch (IOException | ClassCastException e) {
            err.println("cannot read " + args[0] + " or write " + args[2] + ": " + e.getMessage());
            return P99Gate.BAD_INPUT;
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }
}

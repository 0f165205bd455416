package archlab.ladder;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 10 ms rule's other half: the plans {@code auto_explain} wrote to the server's log, read back for one phase. The
 * server script writes the log's path beside its URL ({@value #PATH_FILE}); {@link #mark()} before the phase,
 * {@link #since} after: the entries of the ladder's own statements (those reading {@code orders} or stamping
 * {@code users}) appended meanwhile, counted, with the slowest's query and plan.
 *
 * <p>An entry, as PostgreSQL 15 writes it with the default {@code log_line_prefix}:
 * <pre>
 * 2026-12-07 11:00:00.000 UTC [1234] LOG:  duration: 15.123 ms  plan:
 * 	Query Text: SELECT * FROM orders WHERE …
 * 	Sort  (cost=… rows=… width=…)
 * 	  ->  Bitmap Heap Scan on orders  (…)
 * </pre>
 *
 * <p>Thread-safety: none needed; one phase at a time.
 */
public final class AutoExplainLog {

    /** Where {@code .servers/postgres.sh} writes its log's path, under the repository's root. */
    public static final String PATH_FILE = "target/servers/postgres/log.path";
    /** The plan lines kept of the slowest entry. */
    public static final int PLAN_LINES = 4;
    /** The most bytes read of one phase's log: past it, the rest is not read (and the count says so). */
    public static final int MAX_BYTES = 8 << 20;

    private static final Pattern HEAD = Pattern.compile("LOG:  duration: ([0-9.]+) ms  plan:\\s*$");

    private final Path log;

    /**
     * One logged plan.
     *
     * @param durationMillis the execution's time, ms
     * @param queryText      the statement's text
     * @param planLines      its plan's first lines (at most {@value #PLAN_LINES}), trimmed
     */
    public record Entry(double durationMillis, String queryText, List<String> planLines) {
        public Entry {
            planLines = List.copyOf(planLines);
        }
    }

    /**
     * @param count     the ladder's statements logged in the phase
     * @param slowest   the slowest of them; empty when none
     * @param truncated whether the phase wrote more than {@value #MAX_BYTES} bytes of log, the rest not read
     */
    public record Entries(int count, Optional<Entry> slowest, boolean truncated) {
    }

    private AutoExplainLog(Path log) {
        this.log = log;
    }

    /** @return the log of the server the script started for the repository at or above {@code from}; empty when none */
    public static Optional<AutoExplainLog> find(Path from) {
        return archlab.run.ServerUrlFile.find(from, PATH_FILE).flatMap(archlab.run.ServerUrlFile::read)
                .map(Path::of).filter(p -> p.toFile().canRead()).map(AutoExplainLog::new);
    }

    /** @return the log's path */
    public Path path() {
        return log;
    }

    /** @return where the log ends now: pass it to {@link #since} */
    public long mark() {
        return log.toFile().length();
    }

    /** @return the ladder's entries written after {@code mark} */
    public Entries since(long mark) {
        String text;
        boolean truncated;
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long length = Math.max(0, f.length() - mark);
            truncated = length > MAX_BYTES;
            byte[] bytes = new byte[(int) Math.min(length, MAX_BYTES)];
            f.seek(mark);
            f.readFully(bytes);
            text = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server's log " + log, e);
        }
        return parse(text, truncated);
    }

    /** @return the ladder's entries in {@code text}, a part of the log */
    static Entries parse(String text, boolean truncated) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher head = HEAD.matcher(lines[i]);
            if (!head.find()) {
                continue;
            }
            String query = "";
            List<String> plan = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.length && (lines[j].startsWith("\t") || lines[j].startsWith(" ")); j++) {
                String line = lines[j].strip();
                if (line.startsWith("Query Text: ")) {
                    query = line.substring("Query Text: ".length());
                } else if (plan.size() < PLAN_LINES) {
                    plan.add(line);
                }
            }
            if (archlab.db.ladder.LadderQuery.isInterfaces(query)) {
                entries.add(new Entry(Double.parseDouble(head.group(1)), query, plan));
            }
            i = j - 1;
        }
        Optional<Entry> slowest = entries.stream().max(java.util.Comparator.comparingDouble(Entry::durationMillis));
        return new Entries(entries.size(), slowest, truncated);
    }
}

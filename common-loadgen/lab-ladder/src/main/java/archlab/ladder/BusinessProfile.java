package archlab.ladder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import archlab.profile.AllocationSamples;
import archlab.profile.WeightedStack;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a rung's CPU and allocation fell, read from its JDK Flight Recorder file. Each {@code jdk.ExecutionSample} (a
 * thread running Java code) counts one, each {@code jdk.ObjectAllocationSample} its weight (the bytes its thread
 * allocated since its previous sample), under the business stage its stack is in — the mapping, the tag, the body, the
 * request log (the methods {@code archlab.ladder.compute.OrdersPage} calls), the request's trace — or the database's
 * read, the rest of the servlet, or outside the servlet (Tomcat, the load generator, the JVM's own threads). Beside it,
 * what had a frame of each library the slow choices use: the article's flame-graph reading (string building, reflection
 * mapping, JSON, logging, tracing), as figures a test can hold. The allocation's are the steadier: hundreds of samples
 * a second against the CPU's one per running thread per millisecond.
 *
 * <p>The allocation samples are settled as the lab's profiles settle them ({@link AllocationSamples}): the first
 * sample of each thread older than the recording (Tomcat's, made in the rung's warm-up) is left out, since JFR weighs it
 * by everything the thread allocated since its previous sample. A stack JFR cut short (it keeps the innermost 64
 * frames) that names no stage is counted under {@value #TRUNCATED}, not outside the servlet.
 *
 * <p>Immutable once read; thread-safe.
 *
 * @param cpu        execution samples
 * @param allocation allocation samples' weights, bytes
 * @param jfr        the recording
 */
public record BusinessProfile(Tally cpu, Tally allocation, Path jfr) {

    /**
     * @param total     over the recording
     * @param byPlace   per place, in {@link #PLACES} order
     * @param inLibrary with a frame of each library, in {@link #LIBRARIES} order
     */
    public record Tally(long total, Map<String, Long> byPlace, Map<String, Long> inLibrary) {
        public Tally {
            byPlace = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byPlace));
            inLibrary = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inLibrary));
        }

        /** @return what was counted under {@code place} */
        public long at(String place) {
            return byPlace.getOrDefault(place, 0L);
        }

        /** @return what had a frame of {@code library} */
        public long in(String library) {
            return inLibrary.getOrDefault(library, 0L);
        }
    }

    private static final class Counter {
        long total;
        final Map<String, Long> byPlace = new LinkedHashMap<>();
        final Map<String, Long> inLibrary = new LinkedHashMap<>();

        Counter() {
            PLACES.forEach(p -> byPlace.put(p, 0L));
            LIBRARIES.keySet().forEach(l -> inLibrary.put(l, 0L));
        }

        void add(List<String> frames, long weight) {
            total += weight;
            byPlace.merge(place(frames), weight, Long::sum);
            for (Map.Entry<String, String> l : LIBRARIES.entrySet()) {
                if (frames.stream().anyMatch(f -> f.startsWith(l.getValue()))) {
                    inLibrary.merge(l.getKey(), weight, Long::sum);
                }
            }
        }

        Tally tally() {
            return new Tally(total, byPlace, inLibrary);
        }
    }

    /** A stage and the method whose frame marks it. */
    private record Marker(String place, String frame) {
    }

    private static final List<Marker> STAGES = List.of(
            new Marker("map", "archlab.ladder.compute.OrderMapping.views"),
            new Marker("tag", "archlab.ladder.compute.PageTag.of"),
            new Marker("encode", "archlab.ladder.compute.OrdersBody.encode"),
            new Marker("log", "archlab.ladder.compute.RequestLog.answered"),
            new Marker("trace", "archlab.ladder.monitor.RequestTracer.trace"),
            new Marker("database", "archlab.db.ladder.RecentOrdersQuery.read"));

    /** Where a stack JFR cut short that names no stage is counted. */
    public static final String TRUNCATED = "stack cut short";
    /** The frame {@link #read} adds at the root end of a stack JFR cut short. */
    static final String TRUNCATED_FRAME = "(stack cut short)";

    /** The places a sample is counted under, in the report's order. */
    public static final List<String> PLACES = List.of("map", "tag", "encode", "log", "trace", "database", "servlet, other",
            TRUNCATED, "outside the servlet");

    /** The places inside the servlet (the stages, the database, the rest of the servlet). */
    public static final List<String> SERVLET_PLACES = PLACES.subList(0, PLACES.size() - 2);

    /** The libraries counted, by the frame prefix that marks each, in the report's order. */
    public static final Map<String, String> LIBRARIES = libraryPrefixes();

    private static Map<String, String> libraryPrefixes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Dozer", "com.github.dozermapper.");
        m.put("string concatenation", "java.lang.StringConcatHelper.");
        m.put("Jackson", "com.fasterxml.jackson.");
        m.put("Log4j", "org.apache.logging.log4j.");
        m.put("protobuf", "com.google.protobuf.");
        m.put("OpenTelemetry", "io.opentelemetry.");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** @return the recording's samples, placed */
    public static BusinessProfile read(Path jfr) {
        Counter cpu = new Counter();
        AllocationSamples allocations = new AllocationSamples();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("jdk.ThreadAllocationStatistics")) {
                    allocations.threadStatistics(e.getStartTime(), e.getThread() == null ? null : e.getThread().getJavaThreadId());
                }
                if (e.getStackTrace() == null) {
                    continue;
                }
                if (type.equals("jdk.ExecutionSample")) {
                    cpu.add(frames(e), 1);
                } else if (type.equals("jdk.ObjectAllocationSample")) {
                    RecordedThread t = e.getThread();
                    allocations.sample(t == null ? -1 : t.getJavaThreadId(), t != null && t.isVirtual(), e.getStartTime(),
                            frames(e), e.getLong("weight"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the rung's recording " + jfr, e);
        }
        Counter allocation = new Counter();
        for (WeightedStack s : allocations.settle().weightedStacks()) {
            allocation.add(s.frames(), (long) s.weight());
        }
        return new BusinessProfile(cpu.tally(), allocation.tally(), jfr);
    }

    /** @return the event's frames, leaf first; a stack JFR cut short ends in {@link #TRUNCATED_FRAME} */
    private static List<String> frames(RecordedEvent e) {
        List<String> frames = new java.util.ArrayList<>(e.getStackTrace().getFrames().stream().map(BusinessProfile::name).toList());
        if (e.getStackTrace().isTruncated()) {
            frames.add(TRUNCATED_FRAME);
        }
        return frames;
    }

    /** @return where a stack (leaf first, "class.method") is counted */
    static String place(List<String> frames) {
        for (Marker m : STAGES) {
            if (frames.contains(m.frame())) {
                return m.place();
            }
        }
        return frames.stream().anyMatch(f -> f.startsWith(RecentOrdersServlet.class.getName() + ".")) ? "servlet, other"
                : frames.contains(TRUNCATED_FRAME) ? TRUNCATED : "outside the servlet";
    }

    private static String name(RecordedFrame f) {
        return f.getMethod() == null ? "?" : f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }
}

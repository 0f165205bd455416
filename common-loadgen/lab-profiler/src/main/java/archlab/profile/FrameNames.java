package archlab.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * Classifying: which method a stack frame is. A frame is named {@code package.Class.method} from its
 * {@code RecordedMethod} (type name + method name): nested classes with {@code $}, lambdas as
 * {@code Outer.lambda$name$0}. Overloads share a name, so they share a row, as in pprof.
 *
 * <p><b>Trap 1: a hidden class's name changes every run.</b> A lambda's class is
 * {@code Outer$$Lambda.0x000000001a2b3c} (or {@code /0x…}); the address differs per run, so the same code would
 * be a different row in every report. It is named {@code Outer$$Lambda}.
 *
 * <p><b>Trap 2: JFR cuts deep stacks.</b> A stack deeper than {@code -XX:FlightRecorderOptions:stackdepth}
 * (default 64) loses its outermost frames, and with them the entry points' cum. {@link #truncated()} counts the
 * cut stacks among those read, so the report can say so.
 *
 * <p>One instance per read, not thread-safe: it interns names (the same few hundred methods repeat over
 * thousands of stacks) and counts.
 */
final class FrameNames {

    /** {@code Foo$$Lambda.0x000000001a2b3c} (a hidden class's address differs every run) is named {@code Foo$$Lambda}. */
    private static final Pattern HIDDEN_CLASS_SUFFIX = Pattern.compile("(?<=\\$\\$Lambda)[./]0x[0-9a-fA-F]+$");

    private final Map<String, String> names = new HashMap<>();
    private long truncated;

    /**
     * @param e an event recorded with its stack trace
     * @return its frames' method names, <b>leaf first</b>; empty if it has no stack trace
     */
    List<String> of(RecordedEvent e) {
        RecordedStackTrace st = e.getStackTrace();
        if (st == null) {
            return List.of();
        }
        if (st.isTruncated()) {
            truncated++;
        }
        List<RecordedFrame> fs = st.getFrames();
        List<String> out = new ArrayList<>(fs.size());
        for (RecordedFrame f : fs) {
            RecordedMethod m = f.getMethod();
            if (m != null) {
                out.add(names.computeIfAbsent(methodName(m.getType().getName(), m.getName()), k -> k));
            }
        }
        return List.copyOf(out);
    }

    /** @return how many of the stacks read so far JFR cut at its stack depth */
    long truncated() {
        return truncated;
    }

    /**
     * @param typeName   the frame's class, as JFR names it
     * @param methodName the frame's method
     * @return {@code package.Class.method}, without a hidden class's per-run address
     */
    static String methodName(String typeName, String methodName) {
        String type = typeName.contains("$$Lambda") ? HIDDEN_CLASS_SUFFIX.matcher(typeName).replaceFirst("") : typeName;
        return type + "." + methodName;
    }
}

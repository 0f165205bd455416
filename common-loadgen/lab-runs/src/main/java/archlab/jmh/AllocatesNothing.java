package archlab.jmh;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@code @Benchmark} method: one operation must allocate nothing. {@link JmhRun#allocationFailures} reads the
 * bytes per operation JMH's GC profiler measured ({@code gc.alloc.rate.norm}) and fails the run when such a benchmark
 * allocated a byte or more per operation. Time is printed, never gated.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AllocatesNothing {
}

package archlab.loadgen;

import java.util.concurrent.ThreadFactory;

/** Which kind of thread runs each request. Every request gets a thread of its own; there is no cap. */
public enum ThreadKind {
    /** One virtual thread per request: the Java counterpart of a goroutine per request. */
    VIRTUAL {
        @Override
        public ThreadFactory factory() {
            return Thread.ofVirtual().name("req-v-", 1).factory();
        }
    },
    /**
     * One platform (OS) thread per request. Slower to start, but on this JDK JFR records a
     * {@code jdk.ThreadPark} event for a ReentrantLock wait only on platform threads, so profiled runs
     * use this kind.
     */
    PLATFORM {
        @Override
        public ThreadFactory factory() {
            return Thread.ofPlatform().daemon(true).name("req-p-", 1).factory();
        }
    };

    /** @return a factory of unstarted threads of this kind */
    public abstract ThreadFactory factory();
}

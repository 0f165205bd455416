package archlab.http.wire;

import archlab.loadgen.LoadSpec;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An open-loop HTTP/1.1 load generator whose own cost is small: request {@code i} is written at {@code t0 + offset(i)}
 * from the {@link LoadSpec}'s plan whether or not earlier ones were answered, on a few Netty event loops, over keep-alive
 * connections each carrying one request at a time. Latency counts from the planned start (coordinated omission is
 * charged to the run); the send lag (planned start to the write) is kept apart, so a late generator shows as one.
 *
 * <p>The trap it avoids: a thread per request and a general-purpose client (the JDK's {@code HttpClient}, a request
 * builder, a future per call) cost the generator more CPU per request than the server spends answering it, so on a shared
 * machine the generator's ceiling is what a run measures. Here a request is bytes encoded before the run and copied
 * into its connection's buffer ({@link WireRequest}), the schedule is a timer on the event loop that owns the
 * connection ({@link WireLane}), and the figures are lock-free counters ({@link WireTally}). What still allocates per
 * request is Netty's response decoder (an {@code HttpResponse} and its headers) and, when requests are far apart, the
 * loop's timer task per wake-up; {@link WireRun} reports the bytes the event loops allocated per request.
 *
 * <p>Connections: each lane opens {@code rate × 20 ms / lanes + 1} before a phase (Little's law: enough for
 * answers within 20 ms, a shared machine's usual stall) and more when a due request finds none idle, up to
 * {@link #MAX_CONNECTIONS_PER_LANE}; connections stay open from one phase to the next (the server closes those idle past
 * its keep-alive timeout), and one the server ends is replaced when a request next finds none idle. On Linux x86-64 the loops run on epoll,
 * whose timer wakes to the microsecond; elsewhere on NIO, which wakes to the millisecond ({@link #transport()}).
 *
 * <p>Thread-safety: one {@link #run} at a time (it is a load run); {@link #close} after the last.
 */
public final class WireOpenLoop implements AutoCloseable {

    /** The cap on one lane's connections: past it a due request waits for an answer. */
    public static final int MAX_CONNECTIONS_PER_LANE = 512;
    /** The latency the pool is sized for before a phase: connections = rate × this / lanes + 1. */
    public static final Duration SIZED_FOR = Duration.ofMillis(20);
    /** How long after the last deadline a phase waits for its lanes before it reports requests unfinished. */
    public static final Duration DRAIN_GRACE = Duration.ofSeconds(5);
    private static final long GET_GOING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final MultiThreadIoEventLoopGroup group;
    private final String transport;
    private final WireLane[] lanes;
    private final long[] laneThreadIds;

    /**
     * @param base  the server, {@code http://host:port}
     * @param lanes event loops (and threads) the generator runs on, 1..16
     * @throws IllegalArgumentException for a base that is not {@code http://host:port} or lanes out of range
     */
    public WireOpenLoop(URI base, int lanes) {
        if (base == null || !"http".equals(base.getScheme()) || base.getHost() == null || base.getPort() < 1) {
            throw new IllegalArgumentException("base must be http://host:port, was " + base);
        }
        if (lanes < 1 || lanes > 16) {
            throw new IllegalArgumentException("lanes must be 1..16, was " + lanes);
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory handler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends SocketChannel> channel = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        this.transport = epoll ? "epoll" : "nio";
        this.group = new MultiThreadIoEventLoopGroup(lanes, handler);
        this.lanes = new WireLane[lanes];
        this.laneThreadIds = new long[lanes];
        InetSocketAddress server = new InetSocketAddress(base.getHost(), base.getPort());
        for (int i = 0; i < lanes; i++) {
            EventLoop loop = (EventLoop) group.next();
            WireLane[] self = new WireLane[1];
            Bootstrap b = new Bootstrap().group(loop).channel(channel)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpResponseDecoder(), self[0].new Conn(ch));
                        }
                    });
            self[0] = new WireLane(loop, b, server, MAX_CONNECTIONS_PER_LANE);
            this.lanes[i] = self[0];
            laneThreadIds[i] = onLoop(loop, () -> Thread.currentThread().threadId());
        }
    }

    /** @return {@code epoll} or {@code nio}: how the event loops wait */
    public String transport() {
        return transport;
    }

    /** @return the event loops the generator runs on */
    public int lanes() {
        return lanes.length;
    }

    /**
     * Runs the spec's warm-up (if any, its figures dropped), then its measured phase, each request the one
     * {@code workload} names for its sequence. The spec's thread kind, retries and tracing do not apply here.
     *
     * @return the measured phase's figures
     * @throws IllegalArgumentException when the spec asks for retries (this generator does not retry)
     */
    public WireRun run(LoadSpec spec, WireWorkload workload) {
        if (spec.retries().retries()) {
            throw new IllegalArgumentException("the wire generator does not retry: run it with no retries");
        }
        long sequenceOffset = 0;
        if (spec.warmupRequests() > 0) {
            phase(spec, spec.warmupRequests(), 0, workload);
            sequenceOffset = spec.warmupRequests();
        }
        return phase(spec, spec.plannedRequests(), sequenceOffset, workload);
    }

    private WireRun phase(LoadSpec spec, int count, long sequenceOffset, WireWorkload workload) {
        long timeoutNanos = spec.timeout().toNanos();
        int perLane = (int) Math.min(MAX_CONNECTIONS_PER_LANE,
                (long) Math.ceil(spec.ratePerSecond() * SIZED_FOR.toNanos() / 1e9 / lanes.length) + 1);
        for (WireLane lane : lanes) {
            onLoop(lane.loop, () -> {
                lane.openUpTo(perLane);
                return null;
            });
        }
        awaitOpen(perLane);
        long[] offsets = spec.arrival().plan(count, spec.ratePerSecond());
        WireTally tally = new WireTally(timeoutNanos);
        WirePhase.Shared shared = new WirePhase.Shared(tally, workload, timeoutNanos);
        CountDownLatch done = new CountDownLatch(lanes.length);
        WireRun.Cost before = cost();
        long[] openedBefore = new long[lanes.length];
        for (int l = 0; l < lanes.length; l++) {
            WireLane lane = lanes[l];
            openedBefore[l] = onLoop(lane.loop, lane::snapshot).opened();
        }
        long t0 = System.nanoTime() + GET_GOING_NANOS;
        for (int l = 0; l < lanes.length; l++) {
            int n = count > l ? (count - l + lanes.length - 1) / lanes.length : 0;
            long[] planned = new long[n];
            for (int k = 0; k < n; k++) {
                planned[k] = t0 + offsets[l + k * lanes.length];
            }
            WirePhase p = new WirePhase(planned, sequenceOffset + l + 1, lanes.length, shared, done);
            WireLane lane = lanes[l];
            lane.loop.execute(() -> lane.begin(p));
        }
        long lastDeadline = t0 + (count == 0 ? 0 : offsets[count - 1]) + timeoutNanos;
        boolean drained;
        try {
            drained = done.await(Math.max(0, lastDeadline - System.nanoTime()) + DRAIN_GRACE.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        long wallNanos = System.nanoTime() - t0;
        long unsent = 0;
        long unanswered = 0;
        if (!drained) { // the lanes stop the phase where it is before anything is read: nothing counts after this
            for (WireLane lane : lanes) {
                WireLane.Abandoned a = onLoop(lane.loop, lane::abandon);
                unsent += a.unsent();
                unanswered += a.unanswered();
            }
        }
        WireRun.Cost cost = cost().minus(before, wallNanos);
        long opened = 0;
        int open = 0;
        for (int l = 0; l < lanes.length; l++) {
            WireLane.Snapshot s = onLoop(lanes[l].loop, lanes[l]::snapshot);
            opened += s.opened() - openedBefore[l];
            open += s.open();
        }
        WireRun.Requests requests = new WireRun.Requests(count, tally.started(), tally.notStartedCount() + unsent,
                unanswered, new WireRun.Ended(tally.completed(), tally.timedOut(), tally.failed()));
        return new WireRun(new WireRun.Setup(transport, lanes.length, spec.ratePerSecond()), requests,
                new WireRun.Latencies(tally.latency().summary(), tally.sendLag().summary()), tally.statuses(),
                new WireRun.Connections(open, opened, tally.connectionsLost(), tally.waitedForConnection()), cost);
    }

    /**
     * Waits up to 2 s for every lane to hold {@code perLane} open connections, or to have none still opening (the server
     * refused some: the phase runs with what it has and opens more as requests come due).
     */
    private void awaitOpen(int perLane) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < until) {
            int ready = 0;
            for (WireLane lane : lanes) {
                WireLane.Snapshot s = onLoop(lane.loop, lane::snapshot);
                if (s.open() >= perLane || s.opening() == 0) {
                    ready++;
                }
            }
            if (ready == lanes.length) {
                return;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The event loops' CPU time and allocated bytes so far. */
    private WireRun.Cost cost() {
        long cpu = 0;
        long allocated = 0;
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx) {
            for (long id : laneThreadIds) {
                cpu += Math.max(0, mx.getThreadCpuTime(id));
                allocated += Math.max(0, mx.getThreadAllocatedBytes(id));
            }
        }
        return new WireRun.Cost(cpu, allocated, 0);
    }

    private static <T> T onLoop(EventLoop loop, java.util.concurrent.Callable<T> task) {
        try {
            return loop.submit(task).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the generator's event loop", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the generator's event loop did not answer: " + e, e);
        }
    }

    /** Closes every connection and stops the event loops. */
    @Override
    public void close() {
        for (WireLane lane : lanes) {
            try {
                onLoop(lane.loop, () -> {
                    lane.closeAll();
                    return null;
                });
            } catch (IllegalStateException ignored) {
                // the loop is gone: nothing left to close on it
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}

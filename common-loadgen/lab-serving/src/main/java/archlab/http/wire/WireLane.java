package archlab.http.wire;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's share of an open-loop run: its planned starts, its keep-alive connections (one request outstanding
 * on each, HTTP/1.1 without pipelining), the pacer that wakes at the next planned start, and the sweep that gives up on
 * requests past their deadline.
 *
 * <p>How a request goes: at its planned start the pacer takes an idle connection and writes the request; with none
 * idle, the request waits (its send lag grows: the generator's own pool, one request per connection, is part of the
 * generator) until an answer frees one or a new connection opens (one per waiting request, at most {@link #MAX_OPENING}
 * opening at once, at most the lane's cap in all). An answer frees its connection and sends whatever is due. A request
 * still unanswered at its deadline is counted as timed out and its connection closed (an HTTP/1.1 answer cannot be told
 * from a later one's); a request no connection took before its deadline is counted as never started, whichever of the
 * sweep or a freed connection finds it first. The pacer does not spin: an idle loop's timer wakes late by the OS's
 * wake-up time (tens to hundreds of microseconds here), which is send lag; spinning it away cost a core at a few
 * thousand requests a second.
 *
 * <p>Thread-safety: confined to its event loop; {@link #begin} and {@link #snapshot} are submitted to it.
 */
final class WireLane {

    /** Connections opening at once, per lane. */
    static final int MAX_OPENING = 16;
    /** How often the sweep looks for requests past their deadline. */
    static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    final EventLoop loop;
    private final Bootstrap bootstrap;
    private final SocketAddress server;
    private final int maxConnections;
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final List<Conn> all = new ArrayList<>();
    private final Runnable pacer = this::pace;
    private int opening;
    private long opened;
    private long armedAt = Long.MAX_VALUE;
    private WirePhase phase;
    private ScheduledFuture<?> sweep;

    WireLane(EventLoop loop, Bootstrap bootstrap, SocketAddress server, int maxConnections) {
        this.loop = loop;
        this.bootstrap = bootstrap;
        this.server = server;
        this.maxConnections = maxConnections;
    }

    /** Opens connections until {@code target} are open or opening (at most the cap). On the loop. */
    void openUpTo(int target) {
        int goal = Math.min(target, maxConnections);
        while (all.size() + opening < goal) {
            connect();
        }
    }

    /** What the main thread reads between phases. On the loop. */
    record Snapshot(int open, int opening, long opened) {
    }

    Snapshot snapshot() {
        return new Snapshot(all.size(), opening, opened);
    }

    /** What a phase the main thread stopped waiting for left: requests never sent, requests sent and unanswered. */
    record Abandoned(int unsent, int unanswered) {
    }

    /**
     * Stops the current phase where it is: no more sends, no more counting; its outstanding requests' connections are
     * closed. On the loop.
     */
    Abandoned abandon() {
        WirePhase p = phase;
        stopSweep();
        phase = null;
        int unanswered = 0;
        for (Conn c : List.copyOf(all)) {
            if (c.busy) {
                c.busy = false;
                unanswered++;
                c.channel.close();
            }
        }
        return new Abandoned(p == null ? 0 : p.planned.length - p.next, unanswered);
    }

    private void stopSweep() {
        if (sweep != null) {
            sweep.cancel(false);
            sweep = null;
        }
    }

    /** Starts a phase: arms the pacer and the sweep. On the loop. */
    void begin(WirePhase p) {
        abandon(); // nothing of an earlier phase goes on into this one
        phase = p;
        if (p.planned.length == 0) {
            p.done.countDown();
            return;
        }
        sweep = loop.scheduleAtFixedRate(this::sweep, SWEEP_NANOS, SWEEP_NANOS, TimeUnit.NANOSECONDS);
        drain();
    }

    /** Closes every connection. On the loop. */
    void closeAll() {
        stopSweep();
        phase = null;
        for (Conn c : List.copyOf(all)) {
            c.channel.close();
        }
    }

    private void pace() {
        armedAt = Long.MAX_VALUE;
        drain();
    }

    /**
     * Sends every request that is due while a connection is idle (counting those already past their deadline as never
     * started); then arms the pacer for the next one.
     */
    private void drain() {
        WirePhase p = phase;
        if (p == null) {
            return;
        }
        while (p.next < p.planned.length) {
            long at = p.planned[p.next];
            long now = System.nanoTime();
            if (at > now) {
                if (armedAt > at) {
                    armedAt = at;
                    loop.schedule(pacer, at - now, TimeUnit.NANOSECONDS);
                }
                return;
            }
            if (now - at >= p.timeoutNanos) { // no connection took it in time
                p.next++;
                p.tally.notStarted();
                ended(p);
                continue;
            }
            Conn c = idle.pollLast();
            if (c == null) {
                openForWaiting(p, now);
                return;
            }
            long sequence = p.firstSequence + (long) p.next * p.stride;
            p.next++;
            c.send(p, sequence, at, now);
        }
    }

    /** Opens a connection for each due request waiting for one, within {@link #MAX_OPENING} and the lane's cap. */
    private void openForWaiting(WirePhase p, long now) {
        int waiting = 0;
        for (int i = p.next; i < p.planned.length && p.planned[i] <= now && waiting < MAX_OPENING; i++) {
            waiting++;
        }
        if (p.waitCounted < p.next + 1) {
            p.waitCounted = p.next + 1;
            p.tally.noIdleConnection();
        }
        while (opening < Math.min(waiting, MAX_OPENING) && all.size() + opening < maxConnections) {
            connect();
        }
    }

    private void sweep() {
        WirePhase p = phase;
        if (p == null) {
            return;
        }
        long now = System.nanoTime();
        for (int i = all.size() - 1; i >= 0; i--) {
            Conn c = all.get(i);
            if (c.busy && c.phase == p && now - c.planned >= p.timeoutNanos) {
                c.busy = false;
                p.tally.noAnswer(now - c.planned);
                ended(p);
                c.channel.close();
            }
        }
        while (p.next < p.planned.length && now - p.planned[p.next] >= p.timeoutNanos && idle.isEmpty()) {
            p.next++;
            p.tally.notStarted();
            ended(p);
        }
        drain();
    }

    private void ended(WirePhase p) {
        p.ended++;
        if (p.ended == p.planned.length) {
            stopSweep();
            p.done.countDown();
        }
    }

    private void connect() {
        opening++;
        opened++;
        ChannelFuture f = bootstrap.connect(server);
        f.addListener(done -> {
            if (!loop.inEventLoop()) { // the channel could not even be made (no file descriptor): its future is not the loop's
                loop.execute(() -> connected(f));
                return;
            }
            connected(f);
        });
    }

    private void connected(ChannelFuture f) {
        opening--;
        Conn c = f.isSuccess() ? f.channel().pipeline().get(Conn.class) : null;
        if (c != null && f.channel().isActive()) {
            all.add(c);
            idle.addLast(c);
            drain();
        }
        // a connect that failed is tried again at the next sweep, not at once: a refused connect is quick to repeat
    }

    /** One keep-alive connection: one request outstanding at most; its request buffer is its own and reused. */
    final class Conn extends ChannelInboundHandlerAdapter {
        final Channel channel;
        /** Allocated at the first send, released when the connection goes down: a connect that fails holds none. */
        private ByteBuf out;
        boolean busy;
        long planned;
        WirePhase phase;
        private int status;
        private boolean keepAlive;

        Conn(Channel channel) {
            this.channel = channel;
        }

        void send(WirePhase p, long sequence, long at, long now) {
            busy = true;
            planned = at;
            phase = p;
            status = 0;
            keepAlive = false;
            p.tally.started(now - at);
            WireRequest r = p.workload.requestFor(sequence);
            if (out == null) {
                out = channel.alloc().directBuffer(Math.max(256, r.length()));
            }
            r.encodeInto(out, (at + p.timeoutNanos - now + 999_999) / 1_000_000);
            channel.writeAndFlush(out.retain(), channel.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof DecoderResultProvider d && !d.decoderResult().isSuccess()) {
                    status = 0; // not HTTP: the decoder discards what follows, so the connection is done
                    keepAlive = false;
                    answered();
                    return;
                }
                if (msg instanceof HttpResponse r) {
                    int code = r.status().code();
                    if (code >= 100 && code < 200) {
                        return; // an interim answer (100 Continue): the final one follows
                    }
                    status = code;
                    keepAlive = HttpUtil.isKeepAlive(r);
                }
                if (msg instanceof LastHttpContent && status != 0) {
                    answered();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void answered() {
            if (!busy) {
                return; // an answer to a request the sweep gave up on: its connection is closing
            }
            busy = false;
            WirePhase p = phase;
            p.tally.answered(status, System.nanoTime() - planned);
            ended(p);
            if (keepAlive && channel.isActive()) {
                idle.addLast(this);
            } else {
                channel.close();
            }
            drain();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            all.remove(this);
            idle.remove(this);
            if (out != null) {
                out.release();
                out = null;
            }
            if (busy) {
                busy = false;
                    phase.tally.connectionLost(System.nanoTime() - planned);
                ended(phase);
            }
            drain();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}

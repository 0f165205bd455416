package archlab.http;

import java.net.InetAddress;
import java.time.Duration;

/**
 * Ports on 127.0.0.1, the only address the lab's servers bind: is one free to listen on, does anything answer on one.
 * Kept here, where the runner and the checkpoints' tests import it from; the checks live in
 * {@link archlab.loopback.LoopbackPort}, which the downstream server ({@code archlab.downstream.remote}) shares without
 * depending on this package. Stateless; safe from any thread.
 */
public final class LoopbackPort {

    /** The port that asks the OS for a free one. */
    public static final int ANY = archlab.loopback.LoopbackPort.ANY;
    /** The highest TCP port. */
    public static final int MAX = archlab.loopback.LoopbackPort.MAX;
    /** 127.0.0.1. */
    public static final InetAddress LOOPBACK = archlab.loopback.LoopbackPort.LOOPBACK;

    private LoopbackPort() {
    }

    /** @see archlab.loopback.LoopbackPort#requireFree(String, int) */
    public static void requireFree(String name, int port) {
        archlab.loopback.LoopbackPort.requireFree(name, port);
    }

    /** @see archlab.loopback.LoopbackPort#checkedPort(String, int, String) */
    public static int checkedPort(String name, int port, String given) {
        return archlab.loopback.LoopbackPort.checkedPort(name, port, given);
    }

    /** @see archlab.loopback.LoopbackPort#answers(int, Duration) */
    public static boolean answers(int port, Duration timeout) {
        return archlab.loopback.LoopbackPort.answers(port, timeout);
    }
}

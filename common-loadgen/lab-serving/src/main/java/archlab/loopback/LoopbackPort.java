package archlab.loopback;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * Ports on 127.0.0.1, the only address the lab's servers bind: is one free to listen on, does anything answer on one.
 * Stateless; safe from any thread.
 */
public final class LoopbackPort {

    /** The port that asks the OS for a free one. */
    public static final int ANY = 0;
    /** The highest TCP port. */
    public static final int MAX = 65_535;
    /** 127.0.0.1. */
    public static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private LoopbackPort() {
    }

    /**
     * Checks that a server could listen on 127.0.0.1:{@code port} now, by binding it and letting it go (with
     * {@code SO_REUSEADDR}, as a server socket binds on Linux: connections of a server that just died, in TIME_WAIT,
     * do not block it; a socket that listens there does). Another process may still take the port between this check
     * and the server's bind.
     *
     * @param name what the port is called in the message, e.g. {@code lab.serve.port}
     * @param port 1..{@value #MAX}, or {@value #ANY} (always free: the OS picks)
     * @throws IllegalArgumentException naming {@code name}, the port and why it cannot be used
     */
    public static void requireFree(String name, int port) {
        if (checkedPort(name, port, Integer.toString(port)) == ANY) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(LOOPBACK, port));
        } catch (IOException e) {
            throw new IllegalArgumentException(name + "=" + port + ": cannot listen on 127.0.0.1:" + port + " ("
                    + e.getMessage() + "; another server there?): stop it, choose another port, or leave " + name
                    + " out for a free one");
        }
    }

    /**
     * @param given the port as the reader typed it, for the message
     * @return {@code port}, when it is 1..{@value #MAX} or {@value #ANY}
     * @throws IllegalArgumentException naming {@code name} and {@code given} otherwise
     */
    public static int checkedPort(String name, int port, String given) {
        if (port < ANY || port > MAX) {
            throw new IllegalArgumentException(name + " must be a port 1.." + MAX + " (or " + ANY
                    + " for a free one the OS picks), was '" + given + "'");
        }
        return port;
    }

    /** @return whether something accepts a connection on 127.0.0.1:{@code port} within {@code timeout} */
    public static boolean answers(int port, Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), (int) Math.max(1, timeout.toMillis()));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

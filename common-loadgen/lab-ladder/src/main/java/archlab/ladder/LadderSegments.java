package archlab.ladder;

/**
 * A request's mean time split into the article's stages as far as the lab sees them, µs. The article split its 82 ms
 * into network, the server's queue, business code, the database (and serialisation); here the client's mean latency is
 * split by what the server measured of the same requests:
 * <ul>
 * <li>{@code network}: the client's mean minus everything the server measured — the connection's set-up when there is
 *     no keep-alive, the bytes' way through the kernel both ways, Tomcat's reading and parsing, and a send the kernel
 *     held back (Nagle);</li>
 * <li>{@code queue}: Tomcat's executor queue, per request (the socket events' waits summed, divided by requests);</li>
 * <li>{@code business}: the servlet's time outside the database and the pool: parsing, the JSON, the writes;</li>
 * <li>{@code connectionWait}: waiting for the pool's connection;</li>
 * <li>{@code database}: the statements, their rows and the commit, lock waits included.</li>
 * </ul>
 * Means, because means add up: the five sum to {@code clientMean} (network is what is left). The client's mean covers
 * every request it started, a timed-out one at its timeout; the server's, the requests it answered 200: when the two
 * sets differ (a collapsed rung), the split mixes them, and the report says so beside the rung.
 *
 * <p>Immutable.
 */
public record LadderSegments(double clientMeanMicros, double networkMicros, double queueMicros, double businessMicros,
                             double connectionWaitMicros, double databaseMicros) {

    /**
     * @param clientMeanMicros the client's mean latency over the phase, µs
     * @param queueMicros      the executor's queue wait per request, µs
     * @param server           the servlet's sums over the same phase
     */
    public static LadderSegments of(double clientMeanMicros, double queueMicros, ServerSegments server) {
        double servlet = server.servletMeanMicros();
        double wait = server.connectionWaitMeanMicros();
        double db = server.databaseMeanMicros();
        return new LadderSegments(clientMeanMicros, clientMeanMicros - queueMicros - servlet, queueMicros,
                servlet - wait - db, wait, db);
    }

    /** @return the database's share of the client's mean, 0..1 (0 with no requests) */
    public double databaseShare() {
        return clientMeanMicros <= 0 ? 0 : databaseMicros / clientMeanMicros;
    }

    /** @return the stage with the largest share, by name */
    public String largest() {
        String name = "network";
        double most = networkMicros;
        if (queueMicros > most) { name = "queue"; most = queueMicros; }
        if (businessMicros > most) { name = "business"; most = businessMicros; }
        if (connectionWaitMicros > most) { name = "connection wait"; most = connectionWaitMicros; }
        if (databaseMicros > most) { name = "database"; }
        return name;
    }
}

package archlab.http;

/**
 * The threads the HTTP server runs requests on ({@code -Dlab.server.threads}).
 *
 * <ul>
 *   <li>{@link #PLATFORM}: Tomcat's defaults, as the article's incident: at most {@value #TOMCAT_MAX_THREADS} platform
 *       threads; a socket event that finds them all busy waits in the executor's queue; the OS accept queue
 *       ({@code acceptCount}) is {@value #TOMCAT_ACCEPT_COUNT}.</li>
 *   <li>{@link #VIRTUAL}: one virtual thread per socket event, no pool to fill.</li>
 * </ul>
 */
public enum ServerThreads {
    PLATFORM,
    VIRTUAL;

    /** Tomcat's default {@code maxThreads}. */
    public static final int TOMCAT_MAX_THREADS = 200;
    /** Tomcat's default {@code acceptCount}: the listen backlog. */
    public static final int TOMCAT_ACCEPT_COUNT = 100;

    /** @return {@code platform} or {@code virtual}, as the property takes it */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

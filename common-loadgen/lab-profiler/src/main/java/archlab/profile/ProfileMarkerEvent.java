package archlab.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Committed by {@link JfrRecorder} when the recording starts and just before it stops, so that
 * {@link ProfileReport#read} knows the exact recorded interval and the processors the JVM could use.
 */
@Name(ProfileMarkerEvent.NAME)
@Label("arch-lab profile marker")
@Category({"arch-lab"})
@Description("Start and stop of an arch-lab profiled load run")
@StackTrace(false)
final class ProfileMarkerEvent extends Event {

    static final String NAME = "archlab.ProfileMarker";
    static final String START = "start";
    static final String STOP = "stop";

    @Label("Phase")
    String phase;

    @Label("Available processors")
    int availableProcessors;

    static void commit(String phase) {
        ProfileMarkerEvent event = new ProfileMarkerEvent();
        event.phase = phase;
        event.availableProcessors = Runtime.getRuntime().availableProcessors();
        event.commit();
    }
}

package archlab.run;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Reads every {@code -Dlab.*} property once, when a module's test JVM starts, before any test class: a typo such
 * as {@code -Dlab.rat=1000} or a bad value stops the whole Maven run within seconds, in the first module it reaches,
 * naming the property — instead of after a minute of fast tests, or never (a run with the book's rate). The trap it
 * closes: an override that silently does nothing.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener} in
 * lab-runs' resources, so every module whose tests see lab-runs (the checkpoints, lab-grader, the book) checks too.
 * The parsing itself is {@link LabProperties}, the one place that reads {@code -Dlab.*}.
 */
public final class LabPropertiesCheck implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            LabProperties.fromSystem();
        } catch (IllegalArgumentException e) {
            System.err.println("[lab] " + e.getMessage());
            throw e;
        }
    }
}

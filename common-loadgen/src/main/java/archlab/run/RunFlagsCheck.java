package archlab.run;

import archlab.scenario.ScenarioProgress;

/**
 * Checks the run flags of a Maven command before any test JVM starts: every {@code -Dlab.*} override
 * ({@link LabProperties}) and the {@code -Dscenarios=…} selection. Maven runs it in its own JVM (the root POM's
 * {@code exec-maven-plugin} execution, once, in {@code common-loadgen}, which every {@code -pl} builds), so a typo stops
 * the command in one screen, with the property, its value and the nearest known name, instead of a stack trace from a
 * forked test JVM or a minute of fast tests.
 *
 * <p>The trap it closes: an override that silently does nothing, and an error a person cannot act on.
 */
public final class RunFlagsCheck {

    private RunFlagsCheck() {
    }

    /**
     * @param args ignored
     * @throws IllegalArgumentException naming the first bad flag, its value and what it might have meant
     */
    public static void main(String[] args) {
        try {
            LabProperties.fromSystem();
            String scenarios = System.getProperty("scenarios");
            if (scenarios != null) {
                ScenarioProgress.selected(scenarios);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("[lab] " + e.getMessage()); // the line to act on, before Maven's own
            throw e;
        }
    }
}

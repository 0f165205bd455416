package archlab.run;

import archlab.loopback.LoopbackPort;
import archlab.scenario.ScenarioProgress;

/**
 * Checks the run flags of a Maven command before any test JVM starts: every {@code -Dlab.*} override
 * ({@link LabProperties}), the {@code -Dscenarios=…} selection, and with {@code -Dserve} that the port asked for
 * ({@code -Dlab.serve.port}) is free on 127.0.0.1. It runs inside Maven's own JVM (the root POM's
 * {@code exec-maven-plugin} {@code java} execution, once, in {@code common-loadgen/lab-runs}, which every {@code -pl} of a checkpoint builds),
 * so a typo stops the command in one screen, with the property, its value and the nearest known name, instead of a
 * stack trace from a forked test JVM or a minute of fast tests. It ends Maven with exit code 2 and its own two lines:
 * an exception would make Maven print a stack trace and a page of advice.
 *
 * <p>The trap it closes: an override that silently does nothing, and an error a person cannot act on.
 */
public final class RunFlagsCheck {

    private RunFlagsCheck() {
    }

    /**
     * @param args ignored
     * (exits the JVM with code 2, after naming the first bad flag, its value and what it might have meant)
     */
    public static void main(String[] args) {
        try {
            LabProperties lab = LabProperties.fromSystem();
            LongRunSettings.from(System.getProperties(), lab); // a lab.long.* without -Dlong, a bad -Dlong=…
            if (System.getProperty("serve") != null) {
                lab.get(LabProperties.SERVE_PORT).ifPresent(port ->
                        LoopbackPort.requireFree(LabProperties.SERVE_PORT.property(), port));
            }
            String scenarios = System.getProperty("scenarios");
            if (scenarios != null) {
                ScenarioProgress.selected(scenarios);
            }
        } catch (IllegalArgumentException e) {
            // the line to act on, and nothing else: no stack trace, no Maven summary to scroll past
            System.err.println("[lab] " + e.getMessage());
            System.err.println("[lab] stopped before any test ran: fix the flag and run the command again");
            System.exit(2);
        }
    }
}

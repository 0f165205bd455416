package archlab.order;

import archlab.serve.ServedCheckpoint;

/** One instance of a fleet: this checkpoint served as {@link FleetLab} wires it. Started by {@link InstancesTest}. */
public final class FleetServe {

    private FleetServe() {
    }

    public static void main(String[] args) {
        ServedCheckpoint.main(FleetLab::new);
    }
}

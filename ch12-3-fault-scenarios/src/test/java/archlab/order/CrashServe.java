package archlab.order;

import archlab.serve.ServedCheckpoint;

/** The crash test's child: this checkpoint served as {@link CrashLab} wires it, until killed. Started by {@link CrashTest}. */
public final class CrashServe {

    private CrashServe() {
    }

    public static void main(String[] args) {
        ServedCheckpoint.main(CrashLab::new);
    }
}

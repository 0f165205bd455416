package archlab.serve;

/** A main that serves a {@link MemoryFixture}, as a checkpoint's {@code Serve} serves its BookLab: for child-process tests. */
public final class MemoryServe {

    private MemoryServe() {
    }

    public static void main(String[] args) {
        ServedCheckpoint.main(MemoryFixture::new);
    }
}

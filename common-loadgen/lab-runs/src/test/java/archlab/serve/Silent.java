package archlab.serve;

/** A main that prints one line and never serves: for the start timeout's test. */
public final class Silent {

    private Silent() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("warming up, slowly");
        Thread.sleep(60_000);
    }
}

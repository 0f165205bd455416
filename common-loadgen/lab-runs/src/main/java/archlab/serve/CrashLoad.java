package archlab.serve;

import archlab.http.HttpOrderTarget;
import archlab.loadgen.BookWorkload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load of one kill of a {@link CrashSeries}: clients that create an order and pay it, again and again, over HTTP,
 * recording what the server acknowledged, until the kill. Closed loop on purpose: the point is work in flight at the
 * moment of the kill, not a rate.
 *
 * <p>Not thread-safe: one {@link #until} at a time.
 */
final class CrashLoad {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(ord-\\d{6,})\"");

    /**
     * @param ackedCreates  orders whose create was answered 201
     * @param ackedPays     orders whose pay was answered 200
     * @param payAttempted  orders a pay was sent for, answered or not
     * @param unanswered    requests that got no answer: in flight at the kill, or past their deadline
     * @param refused       requests answered with neither 201 (a create) nor 200 (a pay): an error status, or a 409
     * @param serverErrors  of those, the ones answered 500: the server failed in a way it did not classify
     */
    record Answers(Set<String> ackedCreates, Set<String> ackedPays, Set<String> payAttempted, int unanswered, int refused,
                   int serverErrors) {
    }

    /** What ends the load: the kill. */
    @FunctionalInterface
    interface Kill {
        void kill() throws InterruptedException;
    }

    private CrashLoad() {
    }

    /** Puts load on {@code base} from {@code clients} virtual threads, kills after {@code killAfter}, waits for the clients. */
    static Answers until(URI base, int clients, Duration deadline, Duration killAfter, Kill kill) throws InterruptedException {
        Set<String> created = ConcurrentHashMap.newKeySet();
        Set<String> paid = ConcurrentHashMap.newKeySet();
        Set<String> attempted = ConcurrentHashMap.newKeySet();
        AtomicInteger unanswered = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger serverErrors = new AtomicInteger();
        AtomicBoolean killed = new AtomicBoolean();
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(deadline).build()) {
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                threads.add(Thread.ofVirtual().name("crash-client-" + c).start(() -> {
                    while (!killed.get()) {
                        try {
                            HttpResponse<String> create = http.send(request(base.resolve("/orders"), deadline)
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}"))
                                    .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
                            Matcher id = ID.matcher(create.body());
                            if (create.statusCode() != 201 || !id.find()) {
                                refused.incrementAndGet();
                                serverErrors.addAndGet(create.statusCode() == 500 ? 1 : 0);
                                continue;
                            }
                            created.add(id.group(1));
                            attempted.add(id.group(1));
                            HttpResponse<String> pay = http.send(request(base.resolve("/orders/" + id.group(1) + "/pay"), deadline)
                                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                            if (pay.statusCode() == 200) {
                                paid.add(id.group(1));
                            } else {
                                refused.incrementAndGet();
                                serverErrors.addAndGet(pay.statusCode() == 500 ? 1 : 0);
                            }
                        } catch (IOException e) {
                            unanswered.incrementAndGet();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }));
            }
            Thread.sleep(killAfter);
            killed.set(true); // no new requests: what is unanswered now was in flight at the kill
            kill.kill();
            for (Thread t : threads) {
                t.join();
            }
        }
        return new Answers(Set.copyOf(created), Set.copyOf(paid), Set.copyOf(attempted), unanswered.get(), refused.get(),
                serverErrors.get());
    }

    private static HttpRequest.Builder request(URI uri, Duration deadline) {
        return HttpRequest.newBuilder(uri).timeout(deadline.plusSeconds(1))
                .header(HttpOrderTarget.DEADLINE_HEADER, Long.toString(deadline.toMillis()));
    }
}

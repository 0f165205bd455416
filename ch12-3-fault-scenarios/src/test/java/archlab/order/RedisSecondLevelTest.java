package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.clock.NanoClock;
import archlab.downstream.LatencyModel;
import archlab.run.testing.CacheUnderTest;
import archlab.redis.LabRedis;
import archlab.request.RequestContext;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The order cache's second level in Redis ({@link RedisCachedOrderTable}) against the lab's server
 * ({@code bash .servers/redis.sh start}, or {@code -Dlab.redis.url}), each test under a key prefix of its own; skipped,
 * saying so, without one.
 */
class RedisSecondLevelTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ITEMS = List.of(new Item("sku-a", 1, 100));

    private LabRedis redis;
    private InMemoryOrderTable store;
    private RedisCachedOrderTable table;

    @BeforeEach
    void connect() {
        redis = CacheUnderTest.redis().openRedis("l2test");
        store = new InMemoryOrderTable(LatencyModel.ZERO, NanoClock.SYSTEM);
        table = new RedisCachedOrderTable(store, redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT);
    }

    @AfterEach
    void deleteTheKeys() {
        if (redis != null) { // null: skipped for want of a server
            redis.close();
        }
    }

    @Test
    @DisplayName("read-through: the first read goes to the store and fills Redis, the next is answered by Redis")
    void readThrough() {
        Order created = table.insert("cust", ITEMS, 100);
        assertThat(table.read(CTX, created.id())).isEqualTo(created);
        assertThat(table.read(CTX, created.id())).isEqualTo(created);
        assertThat(store.reads()).isEqualTo(1);
        assertThat(table.stats()).extracting(RedisCachedOrderTable.Stats::hits, RedisCachedOrderTable.Stats::misses)
                .containsExactly(1L, 1L);
    }

    @Test
    @DisplayName("an unknown id is remembered as absent for a short while; the create of that id invalidates it")
    void negativeEntryUntilTheCreate() {
        assertThat(table.read(CTX, "ord-000001")).isNull();
        assertThat(table.read(CTX, "ord-000001")).isNull();
        assertThat(store.reads()).as("the second answered by Redis").isEqualTo(1);
        Order created = table.insert("cust", ITEMS, 100);
        table.changed(created.id()); // as the service does after every change
        assertThat(created.id()).isEqualTo("ord-000001");
        assertThat(table.read(CTX, "ord-000001")).isEqualTo(created);
    }

    @Test
    @DisplayName("every change invalidates: a read after a claim and its changed() sees PAYING, not the CREATED row Redis held")
    void writesInvalidate() {
        Order created = table.insert("cust", ITEMS, 100);
        table.read(CTX, created.id());
        assertThat(table.update(created.markPaying(), OrderStatus.CREATED)).isTrue();
        table.changed(created.id()); // as the service does after every change, outside its lock
        assertThat(table.read(CTX, created.id()).status()).isEqualTo(OrderStatus.PAYING);
    }

    @Test
    @DisplayName("a fill that raced a write is refused: the old row a slow reader read is not put back after the write's invalidation")
    void aFillThatRacedAWriteIsRefused() {
        Order created = table.insert("cust", ITEMS, 100);
        // a store whose read is overtaken by a write: the reader has the CREATED row, the write lands before its fill
        RedisCachedOrderTable[] self = new RedisCachedOrderTable[1];
        OrderTable racing = (OrderTable) Proxy.newProxyInstance(OrderTable.class.getClassLoader(),
                new Class<?>[]{OrderTable.class}, (proxy, method, args) -> {
                    Object answer = method.invoke(store, args);
                    if (method.getName().equals("read")) {
                        Order before = (Order) answer;
                        self[0].update(before.markPaying(), OrderStatus.CREATED); // a writer's change, and then
                        self[0].changed(before.id()); // its INCR + DEL, now
                    }
                    return answer;
                });
        self[0] = new RedisCachedOrderTable(racing, redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT);

        assertThat(self[0].read(CTX, created.id()).status()).as("the slow reader's own answer").isEqualTo(OrderStatus.CREATED);
        assertThat(self[0].stats().fillsRefused()).isEqualTo(1);
        assertThat(table.read(CTX, created.id()).status()).as("the next reader's").isEqualTo(OrderStatus.PAYING);
    }

    @Test
    @DisplayName("without Redis the store answers: a closed connection counts errors and every read still returns the row")
    void withoutRedisTheStoreAnswers() {
        Order created = table.insert("cust", ITEMS, 100);
        redis.close();
        assertThat(table.read(CTX, created.id())).isEqualTo(created);
        assertThat(table.update(created.markPaying(), OrderStatus.CREATED)).as("the write stands").isTrue();
        table.changed(created.id());
        assertThat(table.stats().errors()).isPositive();
        assertThat(redis.timeout()).isLessThanOrEqualTo(Duration.ofMillis(50));
    }

    @Test
    @DisplayName("a Redis that stalls costs a read its small budget, not the stall: the read goes to the store and the error is counted")
    void aStalledRedisCostsTheBudgetNotTheStall() {
        Order created = table.insert("cust", ITEMS, 100);
        long readsBefore = store.reads();
        try (LabRedis pauser = CacheUnderTest.redis().openRedis("l2pause")) {
            pauser.commands().clientPause(500); // every client's commands wait half a second: 10 × the budget
            assertThat(table.read(CTX, created.id())).isEqualTo(created);
        }
        assertThat(table.stats().errors()).as("the GET gave up after its budget").isPositive();
        assertThat(store.reads()).as("the store answered").isEqualTo(readsBefore + 1);
    }

    @Test
    @DisplayName("with broadcast, an instance hears every change another instance makes on the fleet's prefix (Redis pub/sub); without, it subscribes to nothing")
    void broadcastReachesTheOtherInstance() throws InterruptedException {
        RedisCachedOrderTable listening = new RedisCachedOrderTable(new InMemoryOrderTable(LatencyModel.ZERO, NanoClock.SYSTEM),
                redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT.withBroadcast(true));
        java.util.concurrent.BlockingQueue<String> heard = new java.util.concurrent.LinkedBlockingQueue<>();
        listening.onChangedElsewhere(heard::add);
        RedisCachedOrderTable deaf = new RedisCachedOrderTable(store, redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT);
        java.util.concurrent.BlockingQueue<String> deafHeard = new java.util.concurrent.LinkedBlockingQueue<>();
        deaf.onChangedElsewhere(deafHeard::add);

        table.changed("ord-000042"); // the other instance's write

        assertThat(heard.poll(5, java.util.concurrent.TimeUnit.SECONDS)).as("the id heard within 5 s").isEqualTo("ord-000042");
        assertThat(deafHeard.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS)).as("heard without broadcast").isNull();
    }
}

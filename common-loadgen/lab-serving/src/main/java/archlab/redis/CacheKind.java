package archlab.redis;

/**
 * Where a checkpoint's read cache keeps its entries ({@code -Dlab.cache}): in the service's heap only (Caffeine, the
 * book's, and the default), or in the heap in front of a second level in Redis ({@link LabRedis}).
 */
public enum CacheKind {
    LOCAL,
    REDIS
}

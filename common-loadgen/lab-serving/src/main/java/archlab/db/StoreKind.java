package archlab.db;

/**
 * Where a checkpoint keeps its orders ({@code -Dlab.store}): in the service's heap, the book's store and the default, or
 * in PostgreSQL ({@link LabDatabase}: a fresh schema and a measured pool for every fixture).
 */
public enum StoreKind {
    MEMORY,
    POSTGRES
}

package archlab.order;

/** The PostgreSQL store (its orders, its outbox, a process's lease) could not be read or written: the database's error, as the cause. */
public final class DatabaseException extends RuntimeException {

    DatabaseException(String message, Exception cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}

package archlab.order;

import java.sql.SQLException;

/** The PostgreSQL store (its orders, its outbox, a process's lease) could not be read or written: the database's error, as the cause. */
public final class DatabaseException extends RuntimeException {

    DatabaseException(String message, SQLException cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}

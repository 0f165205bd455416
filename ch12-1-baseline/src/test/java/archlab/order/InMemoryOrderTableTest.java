package archlab.order;

/** The order table's contract ({@link OrderTableContract}) on the book's table, in memory. */
class InMemoryOrderTableTest extends OrderTableContract {

    @Override
    OrderTable freshTable() {
        return new InMemoryOrderTable();
    }
}

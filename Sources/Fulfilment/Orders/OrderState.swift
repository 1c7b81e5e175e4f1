/// Where an order is, read before a change to it: its store, its customer and its status.
struct OrderState: Sendable {
    var store: StoreID
    var customer: UserID
    var status: OrderStatus
}

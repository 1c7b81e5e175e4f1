/// Where an order is, read before a change to it: its store, its customer and its status.
package struct OrderState: Sendable {
    package var store: StoreID
    package var customer: UserID
    package var status: OrderStatus
}

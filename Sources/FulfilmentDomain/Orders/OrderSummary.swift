import Foundation

/// A line of an order list: enough for the customer's transactions and the staff board.
public struct OrderSummary: Sendable, Equatable {
    public var id: OrderID
    public var number: Int64
    public var storeID: StoreID
    public var customerName: String
    public var status: OrderStatus
    public var paymentMethod: PaymentMethod
    public var paymentStatus: PaymentStatus
    public var total: Money
    public var itemCount: Int
    public var createdAt: Date
    /// The slot it is collected in; nil at a store without a calendar.
    public var pickupSlot: PickupSlot? = nil
    /// Once the customer said they are here (issue 27): the board shows them first.
    public var arrival: OrderArrival? = nil
    /// Substitutes the customer has not answered yet (issue 46: the board flags the order).
    public var openSubstitutions: Int = 0
    /// Lines picked short: fewer found than ordered (the board flags the order).
    public var shortLines: Int = 0
    /// Whether it will be ready on time (issue 47); nil when closed or without a slot, or when
    /// the list was not read against the clock (a customer's own list).
    public var timeliness: OrderTimeliness? = nil
}

import Foundation
import Logging
import QRReceipt

/// A few pending orders of the demo customer, placed through the real checkout, so the order
/// board, pick lists and QR receipts have something to show on the first `make run`. Each takes
/// one of the store's earliest bookable slots (the first two share one), so the board has groups.
public enum DemoOrders {
    /// Baskets by product name fragment and quantity; every name is in `DemoCatalogue`.
    package static let baskets: [[(String, Int)]] = [
        [("Mozzarella", 2), ("Spam", 1), ("Baguette", 1), ("Chilli Powder", 1)],
        [("Ackee", 2), ("Breadfruit", 1), ("Mozzarella", 1), ("Moringa Powder", 1)],
        [("Spam", 3), ("Hard Dough Bread", 1)],
    ]

    /// Places the demo orders for `customerEmail` at `store`; returns their numbers.
    public static func place(
        into database: Database, signer: PickupTokenSigner, customerEmail: String, store: StoreID, logger: Logger
    ) async throws -> [Int64] {
        guard let (customer, _) = try await UserQueries.credentials(email: customerEmail, on: database.client, logger: logger) else {
            return []
        }
        let checkout = Checkout(database: database, signing: { signer })
        // The seed acts for the customer directly: no session, so none to resolve.
        let caller = Caller.resolved(Identity(userID: customer.id, role: .customer, storeID: nil, sessionID: SessionID(UUID())))
        let now = Date()
        let calendar = try await CalendarQueries.calendar(store: store, on: database.client, logger: logger)
        let slots = calendar.map { $0.bookableSlots(from: LocalDate(now, in: $0.timeZone), days: 3, now: now) } ?? []
        var numbers: [Int64] = []
        try await CartQueries.setStore(customer: customer.id, store: store, on: database.client, logger: logger)
        for (index, basket) in baskets.enumerated() {
            for (name, quantity) in basket {
                guard let product = try await DemoSeedQueries.productID(named: name, on: database.client, logger: logger) else { continue }
                try await CartQueries.setQuantity(caller: caller, product: product, quantity: quantity, on: database, logger: logger)
            }
            let slot = slots.isEmpty ? nil : slots[min(max(index - 1, 0), slots.count - 1)]
            let result = try await checkout.run(
                caller: caller, method: .payAtCollection, pickupSlot: slot?.start, now: now,
                idempotencyKey: "demo-order-\(index + 1)", logger: logger)
            numbers.append(result.order.number)
        }
        return numbers
    }
}

import Foundation
import PickList

/// A pick batch as stored: which orders, in which totes, and the lines with their locations —
/// everything `PickWalk` needs to lay out the walk.
struct PickBatch: Sendable {
    var id: UUID
    var storeID: StoreID
    var storeName: String
    /// The store's zone when it has a calendar: the sheet's date and slots are printed in it.
    var timeZone: TimeZone? = nil
    var status: String
    var createdAt: Date
    var completedAt: Date?
    var orders: [BatchOrder]
    var lines: [BatchLine]
    var locations: [PickList.ProductID: ShelfLocation]

    struct BatchOrder: Sendable {
        var orderID: UUID
        var number: Int64
        var tote: String
        var status: String
        var pickupSlot: PickupSlot? = nil
    }

    struct BatchLine: Sendable {
        var orderID: UUID
        var orderNumber: Int64
        var productID: UUID
        var name: String
        var sku: String
        var barcode: String?
        var quantity: Int
        var picked: Int
        var short: Bool
    }

    var isOpen: Bool { status == "open" }

    /// The aisle-ordered walk. Tote labels follow order numbers, as stored at creation.
    func walk() throws -> PickWalk {
        try PickWalk(
            lines: lines.map {
                PickList.OrderLine(
                    orderID: PickList.OrderID($0.orderID.uuidString.lowercased()), orderNumber: String($0.orderNumber),
                    productID: PickList.ProductID($0.productID.uuidString.lowercased()), productName: $0.name, sku: $0.sku,
                    barcode: $0.barcode, quantity: $0.quantity)
            },
            locations: locations)
    }

    var header: PickSheetHeader {
        var slots: [PickList.OrderID: String] = [:]
        for order in orders {
            if let slot = order.pickupSlot { slots[PickList.OrderID(order.orderID.uuidString.lowercased())] = SlotText.label(slot, in: timeZone) }
        }
        return PickSheetHeader(
            storeName: storeName, batchID: id.uuidString.lowercased(), createdAt: createdAt,
            timeZone: timeZone ?? TimeZone(identifier: "UTC")!, slots: slots)
    }

    func line(order: UUID, product: UUID) -> BatchLine? {
        lines.first { $0.orderID == order && $0.productID == product }
    }
}

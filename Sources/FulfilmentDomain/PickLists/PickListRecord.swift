import Foundation
import PickList

/// A pick list as stored: which orders, in which totes, and the lines with their locations —
/// everything `PickRoute` needs to lay out the stops.
package struct PickListRecord: Sendable {
    package var id: PickListID
    package var storeID: StoreID
    package var storeName: String
    /// The store's zone when it has a calendar: the sheet's date and slots are printed in it.
    package var timeZone: TimeZone? = nil
    package var status: String
    package var createdAt: Date
    package var completedAt: Date?
    package var orders: [ToteOrder]
    package var lines: [Line]
    package var locations: [PickList.ProductID: ShelfLocation]

    /// An order on the list and the tote its goods go into.
    package struct ToteOrder: Sendable {
        package var orderID: OrderID
        package var number: Int64
        package var tote: String
        package var status: String
        package var pickupSlot: PickupSlot? = nil
    }

    /// One order line on the list, with how much of it has been picked so far.
    package struct Line: Sendable {
        package var orderID: OrderID
        package var orderNumber: Int64
        package var productID: ProductID
        package var name: String
        package var sku: String
        package var barcode: String?
        package var quantity: Int
        package var picked: Int
        package var short: Bool
        /// What the customer accepts if the shelf is short (issue 27).
        package var substitution: SubstitutionPreference = .init(kind: .none)
        /// The names of the products a `specific` preference names, in its order.
        package var substituteNames: [String] = []
        /// Units of the line given as substitutes so far (`quantity` is what is left to pick).
        package var substituted: Int = 0

        /// The sheet's note: "no subs", "sub: best match", "sub only: A, B".
        package var substitutionNote: String {
            switch substitution.kind {
            case .none: "no subs"
            case .bestMatch: "sub: best match"
            case .specific: "sub only: " + substituteNames.joined(separator: ", ")
            }
        }
    }

    package var isOpen: Bool { status == "open" }

    /// The aisle-ordered route. Tote labels follow order numbers, as stored at creation.
    package func route() throws -> PickRoute {
        try PickRoute(
            lines: lines.map {
                PickLine(
                    orderID: PickList.OrderID($0.orderID), orderNumber: String($0.orderNumber),
                    productID: PickList.ProductID($0.productID), productName: $0.name, sku: $0.sku,
                    barcode: $0.barcode, quantity: $0.quantity, substitution: $0.substitutionNote)
            },
            locations: locations)
    }

    package var header: PickSheetHeader {
        var slots: [PickList.OrderID: String] = [:]
        for order in orders {
            if let slot = order.pickupSlot { slots[PickList.OrderID(order.orderID)] = SlotText.label(slot, in: timeZone) }
        }
        return PickSheetHeader(
            storeName: storeName, pickListID: id.description, createdAt: createdAt,
            timeZone: timeZone ?? TimeZone(identifier: "UTC")!, slots: slots)
    }

    /// The line of `order` for `product`, as the route names them (a tote's order, a stop's
    /// product); nil when that order has nothing of that product on this list.
    package func line(order: PickList.OrderID, product: PickList.ProductID) -> Line? {
        lines.first { PickList.OrderID($0.orderID) == order && PickList.ProductID($0.productID) == product }
    }

    /// The lines keyed as the route names them, for looking up every stop's progress at once.
    package var lineIndex: LineIndex { LineIndex(lines) }

    /// The list's lines by the route's order and product ids.
    package struct LineIndex: Sendable {
        private struct Key: Hashable {
            package var order: PickList.OrderID
            package var product: PickList.ProductID
        }
        private let lines: [Key: Line]

        package init(_ lines: [Line]) {
            self.lines = Dictionary(
                lines.map { (Key(order: PickList.OrderID($0.orderID), product: PickList.ProductID($0.productID)), $0) },
                uniquingKeysWith: { first, _ in first })
        }

        /// See `PickListRecord.line(order:product:)`.
        package func line(order: PickList.OrderID, product: PickList.ProductID) -> Line? {
            lines[Key(order: order, product: product)]
        }
    }
}

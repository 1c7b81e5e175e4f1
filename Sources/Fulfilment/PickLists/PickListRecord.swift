import Foundation
import PickList

/// A pick list as stored: which orders, in which totes, and the lines with their locations —
/// everything `PickRoute` needs to lay out the stops.
struct PickListRecord: Sendable {
    var id: PickListID
    var storeID: StoreID
    var storeName: String
    /// The store's zone when it has a calendar: the sheet's date and slots are printed in it.
    var timeZone: TimeZone? = nil
    var status: String
    var createdAt: Date
    var completedAt: Date?
    var orders: [ToteOrder]
    var lines: [Line]
    var locations: [PickList.ProductID: ShelfLocation]

    /// An order on the list and the tote its goods go into.
    struct ToteOrder: Sendable {
        var orderID: OrderID
        var number: Int64
        var tote: String
        var status: String
        var pickupSlot: PickupSlot? = nil
    }

    /// One order line on the list, with how much of it has been picked so far.
    struct Line: Sendable {
        var orderID: OrderID
        var orderNumber: Int64
        var productID: ProductID
        var name: String
        var sku: String
        var barcode: String?
        var quantity: Int
        var picked: Int
        var short: Bool
        /// What the customer accepts if the shelf is short (issue 27).
        var substitution: SubstitutionPreference = .init(kind: .none)
        /// The names of the products a `specific` preference names, in its order.
        var substituteNames: [String] = []
        /// Units of the line given as substitutes so far (`quantity` is what is left to pick).
        var substituted: Int = 0

        /// The sheet's note: "no subs", "sub: best match", "sub only: A, B".
        var substitutionNote: String {
            switch substitution.kind {
            case .none: "no subs"
            case .bestMatch: "sub: best match"
            case .specific: "sub only: " + substituteNames.joined(separator: ", ")
            }
        }
    }

    var isOpen: Bool { status == "open" }

    /// The aisle-ordered route. Tote labels follow order numbers, as stored at creation.
    func route() throws -> PickRoute {
        try PickRoute(
            lines: lines.map {
                PickLine(
                    orderID: PickList.OrderID($0.orderID), orderNumber: String($0.orderNumber),
                    productID: PickList.ProductID($0.productID), productName: $0.name, sku: $0.sku,
                    barcode: $0.barcode, quantity: $0.quantity, substitution: $0.substitutionNote)
            },
            locations: locations)
    }

    var header: PickSheetHeader {
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
    func line(order: PickList.OrderID, product: PickList.ProductID) -> Line? {
        lines.first { PickList.OrderID($0.orderID) == order && PickList.ProductID($0.productID) == product }
    }

    /// The lines keyed as the route names them, for looking up every stop's progress at once.
    var lineIndex: LineIndex { LineIndex(lines) }

    /// The list's lines by the route's order and product ids.
    struct LineIndex: Sendable {
        private struct Key: Hashable {
            var order: PickList.OrderID
            var product: PickList.ProductID
        }
        private let lines: [Key: Line]

        init(_ lines: [Line]) {
            self.lines = Dictionary(
                lines.map { (Key(order: PickList.OrderID($0.orderID), product: PickList.ProductID($0.productID)), $0) },
                uniquingKeysWith: { first, _ in first })
        }

        /// See `PickListRecord.line(order:product:)`.
        func line(order: PickList.OrderID, product: PickList.ProductID) -> Line? {
            lines[Key(order: order, product: product)]
        }
    }
}

/// A pick list's route: one walk through the store that picks every line of its orders, as stops.
///
/// Build it with ``init(lines:locations:)``. Stops are ordered so the picker walks the store
/// once: by zone (ambient, chilled, frozen: cold goods last), then by the store's aisle walk
/// order, then by bay in a serpentine (see ``BayDirection``), then by shelf, then by product
/// name. Products without a location come last, in ``unlocated``, never dropped.
///
/// The route is a pure function of its input: the same lines and locations, in any order, give
/// an equal route and therefore identical printed sheets.
public struct PickRoute: Hashable, Sendable {
    /// One tote per order on the pick list, in label order (A, B, C, ...).
    public let totes: [Tote]
    /// Located stops, grouped by zone and aisle, in route order.
    public let sections: [AisleSection]
    /// Stops for products with no location, by product name: the picker searches for these last.
    public let unlocated: [PickStop]

    init(totes: [Tote], sections: [AisleSection], unlocated: [PickStop]) {
        self.totes = totes
        self.sections = sections
        self.unlocated = unlocated
    }

    /// Every stop in route order: the sections' stops, then the unlocated ones.
    public var stops: [PickStop] { sections.flatMap(\.stops) + unlocated }

    /// Total units across all stops.
    public var itemCount: Int {
        sections.reduce(0) { $0 + $1.stops.reduce(0) { $0 + $1.quantity } }
            + unlocated.reduce(0) { $0 + $1.quantity }
    }

    /// The tote holding `orderID`, or `nil` if the order is not on this pick list.
    public func tote(for orderID: OrderID) -> Tote? {
        totes.first { $0.orderID == orderID }
    }

    /// The stop for `productID`, or `nil` if no order on the pick list wants that product.
    public func stop(for productID: ProductID) -> PickStop? {
        for section in sections {
            if let stop = section.stops.first(where: { $0.productID == productID }) { return stop }
        }
        return unlocated.first { $0.productID == productID }
    }
}

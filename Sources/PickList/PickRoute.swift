/// One walk through the store that picks every line of a batch of orders.
///
/// Build it with ``init(lines:locations:)``. Stops are ordered so the picker walks the store
/// once: by zone (ambient, chilled, frozen: cold goods last), then by the store's aisle walk
/// order, then by bay in a serpentine (see ``BayDirection``), then by shelf, then by product
/// name. Products without a location come last, in ``unlocated``, never dropped.
///
/// The walk is a pure function of its input: the same lines and locations, in any order, give
/// an equal walk and therefore identical printed sheets.
public struct PickWalk: Hashable, Sendable {
    /// One tote per order in the batch, in label order (A, B, C, ...).
    public let totes: [Tote]
    /// Located stops, grouped by zone and aisle, in walk order.
    public let sections: [AisleSection]
    /// Stops for products with no location, by product name: the picker searches for these last.
    public let unlocated: [PickStop]

    init(totes: [Tote], sections: [AisleSection], unlocated: [PickStop]) {
        self.totes = totes
        self.sections = sections
        self.unlocated = unlocated
    }

    /// Every stop in walk order: the sections' stops, then the unlocated ones.
    public var stops: [PickStop] { sections.flatMap(\.stops) + unlocated }

    /// Total units across all stops.
    public var itemCount: Int {
        sections.reduce(0) { $0 + $1.stops.reduce(0) { $0 + $1.quantity } }
            + unlocated.reduce(0) { $0 + $1.quantity }
    }

    /// The tote holding `orderID`, or `nil` if the order is not in this batch.
    public func tote(for orderID: OrderID) -> Tote? {
        totes.first { $0.orderID == orderID }
    }

    /// The stop for `productID`, or `nil` if no order of the batch wants that product.
    public func stop(for productID: ProductID) -> PickStop? {
        for section in sections {
            if let stop = section.stops.first(where: { $0.productID == productID }) { return stop }
        }
        return unlocated.first { $0.productID == productID }
    }
}

/// The stops in one aisle within one zone pass; printed under one aisle heading.
///
/// An aisle with locations in two zones appears once in each zone's pass.
public struct AisleSection: Hashable, Sendable {
    public let zone: TemperatureZone
    public let aisle: Aisle
    /// Which way the picker walks this aisle's bays.
    public let bayDirection: BayDirection
    /// Never empty: aisles with nothing to pick are not part of the walk.
    public let stops: [PickStop]

    init(zone: TemperatureZone, aisle: Aisle, bayDirection: BayDirection, stops: [PickStop]) {
        self.zone = zone
        self.aisle = aisle
        self.bayDirection = bayDirection
        self.stops = stops
    }
}

/// The direction a picker walks an aisle's bays.
///
/// The walk is a serpentine: the first aisle visited goes up the bays, the next comes back down,
/// and so on, so the picker leaves each aisle at the end where the next one starts. Only aisles
/// with something to pick count (an empty aisle is walked past, not through).
///
/// Alternation restarts with each zone: the first aisle of the ambient, chilled and frozen passes
/// is each walked ascending. Cold sections are usually in their own part of the store, entered
/// from the bay-1 end, and restarting means a stop's direction does not depend on whether some
/// other zone happened to have an odd or even number of aisles in this batch.
public enum BayDirection: String, Hashable, Sendable {
    case ascending
    case descending

    /// The other direction: the next visited aisle's.
    public var reversed: BayDirection { self == .ascending ? .descending : .ascending }
}

extension PickRoute {
    /// Builds the route for a pick list: assigns totes, consolidates lines per product and orders
    /// the stops (see ``PickRoute`` for the order).
    ///
    /// - Parameters:
    ///   - lines: every line of every order on the pick list, in any order.
    ///   - locations: where each product lives; a product missing here becomes an unlocated stop.
    ///     Entries for products no line asks for are ignored.
    /// - Throws: ``PickRouteError/nonPositiveQuantity(orderID:productID:quantity:)`` for a line
    ///   with a quantity below 1.
    public init(lines: [PickLine], locations: [ProductID: ShelfLocation]) throws(PickRouteError) {
        let totes = try Self.assignTotes(lines)
        var toteIndex: [OrderID: Int] = [:]
        toteIndex.reserveCapacity(totes.count)
        for (index, tote) in totes.enumerated() { toteIndex[tote.orderID] = index }

        let products = Self.consolidate(lines, toteIndex: toteIndex)

        var located: [SectionKey: [(ProductDraft, ShelfLocation)]] = [:]
        var unlocated: [ProductDraft] = []
        for product in products.values {
            if let location = locations[product.productID] {
                located[SectionKey(zone: location.zone, aisle: location.aisle), default: []].append((product, location))
            } else {
                unlocated.append(product)
            }
        }

        var sequence = 0
        func stop(_ draft: ProductDraft, at location: ShelfLocation?) -> PickStop {
            sequence += 1
            return draft.stop(sequence: sequence, location: location, totes: totes)
        }

        var sections: [AisleSection] = []
        sections.reserveCapacity(located.count)
        var direction = BayDirection.ascending
        var previousZone: TemperatureZone?
        for key in located.keys.sorted(by: SectionKey.walkOrder) {
            if key.zone != previousZone { direction = .ascending }  // each zone pass restarts
            previousZone = key.zone
            let drafts = located[key, default: []].sorted { Self.shelfOrder($0, $1, direction) }
            sections.append(
                AisleSection(
                    zone: key.zone, aisle: key.aisle, bayDirection: direction,
                    stops: drafts.map { stop($0.0, at: $0.1) }))
            direction = direction.reversed
        }

        let unlocatedStops = unlocated.sorted(by: ProductDraft.byName).map { stop($0, at: nil) }
        self.init(totes: totes, sections: sections, unlocated: unlocatedStops)
    }

    /// One tote per distinct order, labelled in order-number order (order id breaks ties).
    private static func assignTotes(_ lines: [PickLine]) throws(PickRouteError) -> [Tote] {
        var numbers: [OrderID: String] = [:]
        for line in lines {
            guard line.quantity > 0 else {
                throw .nonPositiveQuantity(orderID: line.orderID, productID: line.productID, quantity: line.quantity)
            }
            // An order should have one number; if lines disagree, keep the smallest so the
            // result does not depend on input order.
            if let known = numbers[line.orderID],
                !NaturalOrder.areInIncreasingOrder(line.orderNumber, known)
            {
                continue
            }
            numbers[line.orderID] = line.orderNumber
        }
        let ordered = numbers.sorted { a, b in
            a.value == b.value ? a.key < b.key : NaturalOrder.areInIncreasingOrder(a.value, b.value)
        }
        return ordered.enumerated().map { index, order in
            Tote(label: Tote.label(forIndex: index), orderID: order.key, orderNumber: order.value)
        }
    }

    /// Groups lines by product; each product's per-order quantities are summed and kept in tote order.
    private static func consolidate(_ lines: [PickLine], toteIndex: [OrderID: Int]) -> [ProductID: ProductDraft] {
        var products: [ProductID: ProductDraft] = [:]
        products.reserveCapacity(lines.count)
        for line in lines {
            let details = ProductDetails(name: line.productName, sku: line.sku, barcode: line.barcode)
            let share = (tote: toteIndex[line.orderID]!, quantity: line.quantity, substitution: line.substitution)  // every order has a tote
            if let index = products.index(forKey: line.productID) {
                if details.precedes(products.values[index].details) { products.values[index].details = details }
                products.values[index].shares.append(share)
            } else {
                products[line.productID] = ProductDraft(productID: line.productID, details: details, shares: [share])
            }
        }
        return products
    }

    /// Order of stops inside one aisle: bay in the aisle's direction, then shelf, then name.
    private static func shelfOrder(
        _ a: (ProductDraft, ShelfLocation), _ b: (ProductDraft, ShelfLocation), _ direction: BayDirection
    ) -> Bool {
        if a.1.bay != b.1.bay { return direction == .ascending ? a.1.bay < b.1.bay : a.1.bay > b.1.bay }
        if a.1.shelf != b.1.shelf { return NaturalOrder.areInIncreasingOrder(a.1.shelf, b.1.shelf) }
        return ProductDraft.byName(a.0, b.0)
    }
}

/// A zone pass through one aisle: the unit that gets a heading and a bay direction.
private struct SectionKey: Hashable {
    let zone: TemperatureZone
    let aisle: Aisle

    static func walkOrder(_ a: Self, _ b: Self) -> Bool {
        if a.zone != b.zone { return a.zone < b.zone }
        if a.aisle.walkOrder != b.aisle.walkOrder { return a.aisle.walkOrder < b.aisle.walkOrder }
        if a.aisle.code != b.aisle.code { return NaturalOrder.areInIncreasingOrder(a.aisle.code, b.aisle.code) }
        return a.aisle.name.utf8.lexicographicallyPrecedes(b.aisle.name.utf8)
    }
}

/// What the sheet says about a product; compared so conflicting lines resolve the same way every time.
private struct ProductDetails {
    let name: String
    let sku: String
    let barcode: String?

    /// By UTF-8 bytes, not Unicode equivalence: two spellings of "café" must not tie, or the
    /// one printed would depend on input order.
    func precedes(_ b: Self) -> Bool {
        let a = self
        if !a.name.utf8.elementsEqual(b.name.utf8) { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
        if !a.sku.utf8.elementsEqual(b.sku.utf8) { return a.sku.utf8.lexicographicallyPrecedes(b.sku.utf8) }
        switch (a.barcode, b.barcode) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
    }
}

/// A consolidated product before it has a place on the route.
private struct ProductDraft {
    let productID: ProductID
    var details: ProductDetails
    /// (tote index, quantity, substitution note) per line, unsorted and possibly repeating an order.
    var shares: [(tote: Int, quantity: Int, substitution: String?)]

    static func byName(_ a: Self, _ b: Self) -> Bool {
        a.details.name != b.details.name ? a.details.name < b.details.name : a.productID < b.productID
    }

    func stop(sequence: Int, location: ShelfLocation?, totes: [Tote]) -> PickStop {
        var allocations: [ToteAllocation] = []
        allocations.reserveCapacity(shares.count)
        var pending: (tote: Int, quantity: Int, substitution: String?)?
        for share in shares.sorted(by: { $0.tote < $1.tote }) {
            if let open = pending, open.tote == share.tote {
                pending = (open.tote, open.quantity + share.quantity, open.substitution ?? share.substitution)
                continue
            }
            if let open = pending {
                allocations.append(ToteAllocation(tote: totes[open.tote], quantity: open.quantity, substitution: open.substitution))
            }
            pending = share
        }
        if let open = pending {
            allocations.append(ToteAllocation(tote: totes[open.tote], quantity: open.quantity, substitution: open.substitution))
        }
        return PickStop(
            sequence: sequence, productID: productID, productName: details.name, sku: details.sku,
            barcode: details.barcode, location: location, allocations: allocations)
    }
}

/// What a picker scanned or keyed in to say which product they have in hand.
public enum ScannedCode: Hashable, Sendable {
    case barcode(String)
    case productID(ProductID)
}

/// Why a pick was refused. ``code`` is the stable machine-readable name for API errors.
public enum PickRejection: Error, Hashable, Sendable {
    /// The item in hand is not this stop's product: the most common picking mistake.
    case wrongProduct(expected: ProductID, scanned: ScannedCode)
    /// The order has nothing to pick at this stop.
    case orderNotOnStop(OrderID)
    /// A pick must be at least one unit.
    case nonPositiveQuantity(Int)
    /// Picking this many would put more in the tote than the order asked for.
    case overPick(ordered: Int, alreadyPicked: Int, requested: Int)

    public var code: String {
        switch self {
        case .wrongProduct: "wrong_product"
        case .orderNotOnStop: "order_not_on_stop"
        case .nonPositiveQuantity: "invalid_quantity"
        case .overPick: "over_pick"
        }
    }
}

/// How far one order's share of a stop has been picked.
public struct PickProgress: Hashable, Sendable {
    public let ordered: Int
    public let picked: Int

    public init(ordered: Int, picked: Int) {
        self.ordered = ordered
        self.picked = picked
    }

    /// Units still to pick; if the stop is closed with some left, the line was picked short.
    public var remaining: Int { ordered - picked }
    public var isComplete: Bool { picked >= ordered }
}

extension PickStop {
    /// Whether `code` identifies this stop's product.
    ///
    /// Barcodes are compared as GTINs: surrounding spaces are ignored, and all-digit codes match
    /// regardless of leading zeros (a scanner may read a UPC-A "012345678905" as the EAN-13
    /// "0012345678905"). An empty scan never matches; a stop whose product has no barcode
    /// matches only by product id.
    public func identifies(_ code: ScannedCode) -> Bool {
        switch code {
        case .productID(let id):
            return id == productID
        case .barcode(let scanned):
            guard let barcode else { return false }
            let code = Self.normalizedBarcode(scanned)
            return !code.isEmpty && code == Self.normalizedBarcode(barcode)
        }
    }

    /// Units this stop holds for `orderID`; 0 if the order has nothing here.
    public func quantity(for orderID: OrderID) -> Int {
        allocations.first { $0.tote.orderID == orderID }?.quantity ?? 0
    }

    /// Checks a pick of `quantity` units for `orderID` and returns the progress after it.
    ///
    /// Pure: the caller records the pick (and passes the running total back as `alreadyPicked`).
    /// - Throws: ``PickRejection``, checked in this order: wrong product, order not on this stop,
    ///   quantity below 1, more than ordered.
    public func confirmPick(
        _ code: ScannedCode, quantity: Int, for orderID: OrderID, alreadyPicked: Int = 0
    ) throws(PickRejection) -> PickProgress {
        guard identifies(code) else { throw .wrongProduct(expected: productID, scanned: code) }
        let ordered = self.quantity(for: orderID)
        guard ordered > 0 else { throw .orderNotOnStop(orderID) }
        guard quantity > 0 else { throw .nonPositiveQuantity(quantity) }
        // Compared with what is left, never as a sum: a client's quantity may be any Int.
        let (left, overflow) = ordered.subtractingReportingOverflow(alreadyPicked)
        guard !overflow, quantity <= left else {
            throw .overPick(ordered: ordered, alreadyPicked: alreadyPicked, requested: quantity)
        }
        return PickProgress(ordered: ordered, picked: alreadyPicked + quantity)
    }

    private static func normalizedBarcode(_ code: String) -> Substring {
        var text = Substring(code)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
        let significant = text.drop { $0 == "0" }
        return significant.isEmpty ? "0" : significant
    }
}

extension PickWalk {
    /// The stop whose product `code` identifies, or `nil` if nothing in the batch matches.
    ///
    /// Use it to find where a scanned item belongs; then ``PickStop/confirmPick(_:quantity:for:alreadyPicked:)``.
    public func stop(matching code: ScannedCode) -> PickStop? {
        for section in sections {
            if let stop = section.stops.first(where: { $0.identifies(code) }) { return stop }
        }
        return unlocated.first { $0.identifies(code) }
    }
}

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

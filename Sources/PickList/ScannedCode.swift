/// What a picker scanned or keyed in to say which product they have in hand.
public enum ScannedCode: Hashable, Sendable {
    case barcode(String)
    case productID(ProductID)
}

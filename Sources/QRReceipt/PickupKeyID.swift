/// Identifies one pickup-token signing key; travels in every token (2 bytes).
///
/// Ids are assigned by ``PickupKeyring``: 1 for the first key, then one more per rotation.
/// A verifier uses it to pick the public key; it is not secret.
public struct PickupKeyID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { String(rawValue) }
}

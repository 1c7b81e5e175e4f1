import Foundation

/// A value with no case on the other side of the contract: the contract's enums and the
/// domain's share their raw values (generated from `openapi.yaml` on one side, written by hand on
/// the other), so one that does not match is the service's own mistake. It answers 500 and names
/// the type and the value in the log, never a silent default (an unknown status once read as
/// `pending`).
struct UnknownContractValue: Error, CustomStringConvertible {
    let type: String
    let value: String

    var description: String { "\(type) has no case \"\(value)\": the contract and the domain disagree" }
}

extension RawRepresentable where RawValue == String {
    /// This type's case whose raw value is `raw`, or ``UnknownContractValue``.
    static func matching(_ raw: String) throws(UnknownContractValue) -> Self {
        guard let value = Self(rawValue: raw) else { throw UnknownContractValue(type: "\(Self.self)", value: raw) }
        return value
    }
}

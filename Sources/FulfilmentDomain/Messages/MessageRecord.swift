import Foundation

package enum MessageTag {}
/// A message's id: also what its `Message-ID` is made from, so every attempt carries the same one.
package typealias MessageID = ID<MessageTag>

/// One message of the outbox: what it tells, to whom, and how sending it went.
package struct MessageRecord: Sendable, Equatable {
    package var id: MessageID
    package var storeID: StoreID?
    package var orderID: OrderID?
    package var userID: UserID?
    package var kind: MessageKind
    /// What it tells of: an event's id, a refund's, a reset's, an order's (its one reminder).
    package var moment: String
    package var recipient: String
    /// What the template needs beyond the rows it reads (JSON object).
    package var data: [String: JSONValue]
    package var status: MessageStatus
    package var attempts: Int
    package var nextAttemptAt: Date?
    package var lastAttemptAt: Date?
    package var sentAt: Date?
    package var lastError: String?
    package var createdAt: Date

    /// `<id>@<domain>`: the same on every attempt, so a message sent twice after a crash is one
    /// message to the reader's mail program.
    package func messageID(domain: String) -> String { "\(id.rawValue.uuidString.lowercased())@\(domain)" }
}

extension JSONValue {
    /// A field of an object, `.null` when missing or not an object: chains read like paths
    /// (`data["substitution"]["unitPrice"]["amount"].int`).
    package subscript(key: String) -> JSONValue {
        if case .object(let object) = self { return object[key] ?? .null }
        return .null
    }
    package subscript(index: Int) -> JSONValue {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return .null
    }
    /// Whether an object has `key` at all (a present null counts; the subscript cannot tell).
    package func has(_ key: String) -> Bool {
        if case .object(let object) = self { return object[key] != nil }
        return false
    }
    package var string: String? { if case .string(let value) = self { return value } else { return nil } }
    package var int: Int? { if case .int(let value) = self { return value } else { return nil } }
    package var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    package var array: [JSONValue] { if case .array(let value) = self { return value } else { return [] } }
}

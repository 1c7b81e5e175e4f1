import Foundation
import Logging

/// "I'm here" at the kerb (issue 27): the order's customer says they have arrived and where, so
/// the desk and the board bring the bags out; the wait from then to the hand-over is measured
/// (`Collections`, `fulfilment_arrival_wait_seconds`).
package struct Arrivals: Sendable {
    package let database: Database

    /// Records the arrival (or, again, where they are now) and answers the order.
    package func arrive(order: OrderID, bay: String?, vehicle: String?, note: String?, customer: UserID, logger: Logger) async throws -> Order {
        let bay = try Self.text(bay, field: "bay", limit: 20)
        let vehicle = try Self.text(vehicle, field: "vehicle", limit: 100)
        let note = try Self.text(note, field: "note", limit: 500)
        return try await SubstitutionError.mappingDatabaseErrors {
            try await database.transaction(logger: logger) { connection in
                _ = try await SubstitutionQueries.arrive(
                    order: order, customer: customer, bay: bay, vehicle: vehicle, note: note, on: connection, logger: logger)
                guard let order = try await OrderQueries.order(id: order, on: connection, logger: logger) else {
                    throw SubstitutionError.orderNotFound
                }
                return order
            }
        }
    }

    /// Trimmed, nil when empty, at most `limit` characters and no control characters.
    package static func text(_ text: String?, field: String, limit: Int) throws(SubstitutionError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.unicodeScalars.count <= limit, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidField(field, "The \(field) is at most \(limit) characters, on one line.") }
        return trimmed
    }
}

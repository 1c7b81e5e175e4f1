import Foundation
import HTTPTypes

/// Everything that can go wrong with bags and staging places (issue 47), and how each looks over HTTP.
public enum BagError: Error, APIErrorConvertible, Equatable {
    /// A bag count outside 1...50, or bags named on a move that is not packing.
    case invalidBags(field: String, message: String)
    case invalidPlaces(field: String, message: String)
    /// No bag with that code in the caller's store (another store's bag is not found either).
    case bagNotFound
    /// No such place in the caller's store.
    case placeNotFound
    /// A chilled bag outside a fridge, a frozen one outside a freezer.
    case wrongPlaceForZone(zone: BagZone, kind: StagingPlaceKind)
    /// The bag's order is not packed (or is already handed over, or cancelled).
    case notStageable(OrderStatus)
    /// The manager removed a place that still holds bags.
    case placeInUse(name: String, bags: Int)
    /// The desk counted fewer bags than the order has.
    case bagsMissing(expected: Int, given: Int?)

    public var apiError: APIError {
        switch self {
        case .invalidBags(let field, let message):
            APIError.invalidField(field, message)
        case .invalidPlaces(let field, let message):
            APIError(.unprocessableContent, "invalid_staging_places", message, details: ["field": .string(field)])
        case .bagNotFound:
            APIError(.notFound, "bag_not_found", "No bag of this store has that code.")
        case .placeNotFound:
            APIError(.notFound, "place_not_found", "This store has no such staging place.")
        case .wrongPlaceForZone(let zone, let kind):
            APIError(
                .conflict, "wrong_place_for_zone",
                zone == .frozen ? "A frozen bag waits in a freezer." : "A chilled bag waits in a fridge.",
                details: ["zone": .string(zone.rawValue), "placeKind": .string(kind.rawValue)])
        case .notStageable(let status):
            APIError(
                .conflict, "bag_not_stageable", "Only the bags of a packed order are staged.",
                details: ["status": .string(status.rawValue)])
        case .placeInUse(let name, let bags):
            APIError(
                .conflict, "place_in_use", "\(name) still holds \(bags == 1 ? "a bag" : "\(bags) bags"); hand them over or move them first.",
                details: ["place": .string(name), "bags": .int(bags)])
        case .bagsMissing(let expected, let given):
            APIError(
                .conflict, "bags_missing",
                "This order has \(expected) bags; count every one out before handing it over.",
                details: ["expected": .int(expected), "given": given.map { .int($0) } ?? .null])
        }
    }
}

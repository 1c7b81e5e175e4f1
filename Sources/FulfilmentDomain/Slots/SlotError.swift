import Foundation
import HTTPTypes

/// Everything that can go wrong with a store's calendar and its pickup slots, and how each
/// looks over HTTP.
public enum SlotError: Error, APIErrorConvertible, Equatable {
    case invalidCalendar(field: String, message: String)
    /// A rota (issue 47) with a field out of its bounds or an hour named twice.
    case invalidRota(field: String, message: String)
    case calendarNotFound
    /// The store has a calendar and the checkout named no slot.
    case slotRequired
    case unavailable(SlotRefusal)
    /// No room for the order in that slot: no place left, or its pick work does not fit (issue 47).
    case full(start: Date, because: SlotFullReason)
    /// Only a pending or packaged order may move to another slot.
    case notMovable(OrderStatus)
    case invalidQuery(field: String, message: String)

    public var apiError: APIError {
        switch self {
        case .invalidCalendar(let field, let message):
            APIError(.unprocessableContent, "invalid_calendar", message, details: ["field": .string(field)])
        case .invalidRota(let field, let message):
            APIError(.unprocessableContent, "invalid_rota", message, details: ["field": .string(field)])
        case .calendarNotFound:
            APIError(.notFound, "calendar_not_found", "This store has no pickup calendar: its orders take no slot.")
        case .slotRequired:
            APIError(
                .unprocessableContent, "slot_required",
                "This store hands orders over in pickup slots: send pickupSlot, the start of a slot from GET /v1/stores/{storeId}/pickup-slots.",
                details: ["field": "pickupSlot"])
        case .unavailable(let reason):
            APIError(
                .unprocessableContent, "slot_unavailable", Self.sentence(reason),
                details: ["field": "pickupSlot", "reason": .string(reason.rawValue)])
        case .full(let start, let reason):
            APIError(
                .conflict, "slot_full",
                reason == .places
                    ? "That pickup slot is full; choose another."
                    : "The store's pickers cannot prepare this order in that pickup slot; choose another.",
                details: ["pickupSlot": .string(start.formatted(.iso8601)), "reason": .string(reason.rawValue)])
        case .notMovable(let status):
            APIError(
                .conflict, "slot_not_changeable", "Only a pending or packaged order can move to another slot.",
                details: ["status": .string(status.rawValue)])
        case .invalidQuery(let field, let message):
            APIError.invalidField(field, message)
        }
    }

    package static func sentence(_ reason: SlotRefusal) -> String {
        switch reason {
        case .past: "That pickup slot has already started."
        case .insideLeadTime: "That pickup slot is too soon: the store needs more time to prepare the order."
        case .closed: "The store is closed at that time."
        case .notOnGrid: "That is not the start of a pickup slot."
        case .beyondHorizon: "That pickup slot is too far ahead to book yet."
        case .noCalendar: "This store takes no pickup slots."
        }
    }
}

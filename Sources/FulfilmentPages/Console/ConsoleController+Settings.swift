import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Store settings (issue 46), `/console/settings`: the store's pickup calendar as a manager keeps
/// it: time zone, opening hours (two ranges a day, for a lunch closing), closures with their
/// reason, slot length and capacity, lead time, booking horizon and how long an uncollected order
/// waits (`getStoreCalendar`, `setStoreCalendar`, through `PickupSlots` as the API). A refused
/// form comes back with what was typed and the sentence that says which field is wrong.
extension ConsoleController {
    func registerSettings(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/settings") { request, context in
            try await page(request, context, operation: "getStoreCalendar", store: { $0.storeID }) { visit in
                try await settingsPage(visit, notice: nil, typed: nil)
            }
        }
        router.post("/console/settings/calendar") { request, context in
            try await page(request, context, operation: "setStoreCalendar", store: { $0.storeID }) { visit in
                guard let store = visit.identity.storeID else { throw AccessError.forbidden }
                do {
                    let draft = try SettingsView.draft(from: visit.form)
                    let calendar = try await services.pickupSlots.setCalendar(
                        store: store, to: try StoreCalendar.validated(draft), by: visit.identity, logger: visit.logger)
                    let days = Set(calendar.hours.map(\.weekday)).count
                    return try await settingsPage(
                        visit,
                        notice: Notice(
                            ok: true,
                            text:
                                "Saved: open \(days) day\(days == 1 ? "" : "s") a week, \(calendar.slotMinutes)-minute slots of \(calendar.capacity) orders, \(calendar.closures.count) closure\(calendar.closures.count == 1 ? "" : "s")."
                        ), typed: nil)
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await settingsPage(
                        visit, notice: Notice(ok: false, text: refused.message), typed: visit.form, status: refused.status)
                }
            }
        }
    }

    /// The page with the stored calendar, or with `typed` (a refused form) as it was sent.
    func settingsPage(_ visit: PageVisit, notice: Notice?, typed: ConsoleForm?, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let store = visit.identity.storeID else { throw AccessError.forbidden }
        var calendar: StoreCalendar?
        do {
            calendar = try await services.pickupSlots.calendar(store: store, by: visit.identity, logger: visit.logger)
        } catch SlotError.calendarNotFound {
            calendar = nil
        }
        return SettingsView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, calendar: calendar,
            fields: typed ?? SettingsView.fields(calendar), canEdit: visit.identity.role == .manager
        ).response(status: status)
    }
}

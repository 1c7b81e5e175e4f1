import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Store settings (issue 46), `/console/settings`: the store's pickup calendar as a manager keeps
/// it: time zone, opening hours (two ranges a day, for a lunch closing), closures with their
/// reason, slot length and capacity, lead time, booking horizon and how long an uncollected order
/// waits (`getStoreCalendar`, `setStoreCalendar`, through `PickupSlots` as the API); and the
/// substitution policy (`setSubstitutionPolicy`), and for a manager the rota (issue 47,
/// `getStoreRota`, `setStoreRota`). A refused calendar comes back with what was
/// typed and the sentence that says which field is wrong.
extension ConsoleController {
    func registerSettings(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/settings") { request, context in
            try await page(request, context, operation: "getStoreCalendar", store: { $0.storeID }) { visit in
                try await settingsPage(visit, notice: nil, typed: nil)
            }
        }
        registerSubstitutionPolicy(on: router)
        registerRota(on: router)
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

    /// The store's rota (issue 47, `setStoreRota`): pickers every hour and the hours that differ.
    /// A refused rota comes back as it was typed, with the sentence that says what is wrong.
    func registerRota(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/settings/rota") { request, context in
            try await page(request, context, operation: "setStoreRota", store: { $0.storeID }) { visit in
                guard let store = visit.identity.storeID else { throw AccessError.forbidden }
                do {
                    let draft = try SettingsView.rotaDraft(from: visit.form)
                    let view = try await services.pickupSlots.setRota(
                        store: store, to: try StoreRota.validated(draft), by: visit.identity, logger: visit.logger)
                    let hours = view.rota.hours.count
                    return try await settingsPage(
                        visit,
                        notice: Notice(
                            ok: true,
                            text:
                                "Saved: \(view.rota.defaultPickers) picker\(view.rota.defaultPickers == 1 ? "" : "s") an hour, \(hours) hour\(hours == 1 ? "" : "s") of the week with their own."
                        ), typed: nil)
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await settingsPage(
                        visit, notice: Notice(ok: false, text: refused.message), typed: nil, typedRota: visit.form, status: refused.status)
                }
            }
        }
    }

    /// The store's substitution policy (`setSubstitutionPolicy`): what a line that says nothing
    /// accepts, and how a substitute is priced.
    func registerSubstitutionPolicy(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/settings/substitutions") { request, context in
            try await storeForm(
                request, context, operation: "setSubstitutionPolicy",
                render: { try await settingsPage($0, notice: $1, typed: nil, status: $2) }
            ) { visit, scope in
                guard let preference = visit.form.text("defaultPreference").flatMap(SubstitutionPreference.Kind.init(rawValue:)),
                    preference != .specific
                else { throw APIError.invalidField("defaultPreference", "Choose what a line that says nothing accepts.") }
                guard let rule = visit.form.text("priceRule").flatMap(SubstitutionPriceRule.init(rawValue:)) else {
                    throw APIError.invalidField("priceRule", "Choose how a substitute is priced.")
                }
                let policy = try await services.substitutions.setPolicy(
                    SubstitutionPolicy(defaultPreference: preference, priceRule: rule), in: scope, logger: visit.logger)
                return "Saved: \(SettingsView.words(policy.defaultPreference)); \(SettingsView.words(policy.priceRule))."
            }
        }
    }

    /// The page with the stored calendar, or with `typed` (a refused form) as it was sent.
    func settingsPage(
        _ visit: PageVisit, notice: Notice?, typed: ConsoleForm?, typedRota: ConsoleForm? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let store = visit.identity.storeID else { throw AccessError.forbidden }
        var calendar: StoreCalendar?
        do {
            calendar = try await services.pickupSlots.calendar(store: store, by: visit.identity, logger: visit.logger)
        } catch SlotError.calendarNotFound {
            calendar = nil
        }
        let policy = try await services.substitutions.policy(in: try StoreScope(staff: visit.identity), logger: visit.logger)
        // The rota is its manager's to read (issue 47); staff see the page without it.
        let rota =
            visit.identity.role == .manager
            ? try await services.pickupSlots.rota(store: store, by: visit.identity, logger: visit.logger) : nil
        return SettingsView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, calendar: calendar,
            fields: typed ?? SettingsView.fields(calendar), policy: policy, canEdit: visit.identity.role == .manager, rota: rota,
            rotaFields: typedRota ?? SettingsView.rotaFields(rota)
        ).response(status: status)
    }
}

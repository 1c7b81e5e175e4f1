import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// `/console/stores`: where a chain admin lands after signing in. The chain's stores, a form that
/// opens one (`createStore`), and each store's page (issue 46): its details as the store finder
/// and the messages show them (`updateStore`: name, code, address, telephone, location, the
/// new-arrival window, the reminder, the logo) and its aisles in walk order, added, changed and
/// removed (`createAisle`, `updateAisle`, `deleteAisle`).
extension ConsoleController {
    var stores: Stores { services.stores }

    func registerStores(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/stores") { request, context in
            try await page(request, context, operation: "createStore") { visit in
                try await storesPage(visit, notice: nil)
            }
        }
        router.post("/console/stores") { request, context in
            try await page(request, context, operation: "createStore") { visit in
                do {
                    let form = visit.form
                    let store = try await stores.create(
                        code: form.text("code") ?? "", name: form.text("name") ?? "", address: form["address"] ?? "",
                        currency: form.text("currency") ?? "", location: try Self.location(form), logger: visit.logger)
                    return try await storePage(visit, id: store.id, notice: Notice(ok: true, text: "\(store.name) is open: lay out its aisles next."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await storesPage(visit, notice: Notice(ok: false, text: refused.message), typed: visit.form, status: refused.status)
                }
            }
        }
        router.get("/console/stores/:storeId") { request, context in
            let id = context.parameters.get("storeId") ?? ""
            return try await page(request, context, operation: "updateStore", store: { _ in StoreID(id) }) { visit in
                try await storePage(visit, id: try StoreID.parse(id, notFound: .storeNotFound), notice: nil)
            }
        }
        router.post("/console/stores/:storeId") { request, context in
            try await storeAction(request, context, operation: "updateStore", keepTyped: true) { visit, store in
                let form = visit.form
                try Stores.checkChange(code: form.text("code"), name: form.text("name"), by: visit.identity.role)
                let updated = try await stores.update(
                    store, code: form.text("code"), name: form.text("name"), address: form["address"] ?? "", phone: form["phone"] ?? "",
                    location: try Self.location(form),
                    newArrivalDays: try form.int("newArrivalDays", label: "The new-arrival window", in: 1...365),
                    reminderHours: try form.int("reminderHours", label: "The reminder", in: 0...336), logoURL: form["logoUrl"] ?? "",
                    taxNumber: form["taxNumber"] ?? "", logger: visit.logger)
                return "Saved \(updated.name)."
            }
        }
        registerAisleForms(on: router)
    }

    private func registerAisleForms(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/stores/:storeId/aisles") { request, context in
            try await storeAction(request, context, operation: "createAisle") { visit, store in
                let aisle = try await stores.addAisle(to: store, try Self.aisleFields(visit.form), logger: visit.logger)
                return "Aisle \(aisle.code) (\(aisle.name)) added, walked \(Self.ordinal(aisle.walkOrder))."
            }
        }
        router.post("/console/stores/:storeId/aisles/:aisleId") { request, context in
            let aisle = context.parameters.get("aisleId") ?? ""
            return try await storeAction(request, context, operation: "updateAisle") { visit, store in
                guard let id = AisleID(aisle) else { throw ChainError.aisleNotFound }
                let saved = try await stores.updateAisle(id, of: store, try Self.aisleFields(visit.form), logger: visit.logger)
                return "Aisle \(saved.code) (\(saved.name)) saved."
            }
        }
        router.post("/console/stores/:storeId/aisles/:aisleId/delete") { request, context in
            let aisle = context.parameters.get("aisleId") ?? ""
            return try await storeAction(request, context, operation: "deleteAisle") { visit, store in
                guard let id = AisleID(aisle) else { throw ChainError.aisleNotFound }
                try await stores.removeAisle(id, of: store, logger: visit.logger)
                return "The aisle was removed."
            }
        }
    }

    /// A form on a store's page: the operation's check for that store, then `body`, whose
    /// sentence, or the refusal's, is shown above the page drawn again.
    private func storeAction(
        _ request: Request, _ context: AppRequestContext, operation: String, keepTyped: Bool = false,
        _ body: @escaping @Sendable (PageVisit, StoreID) async throws -> String
    ) async throws -> Response {
        let text = context.parameters.get("storeId") ?? ""
        return try await page(request, context, operation: operation, store: { _ in StoreID(text) }) { visit in
            let store = try StoreID.parse(text, notFound: .storeNotFound)
            do {
                return try await storePage(visit, id: store, notice: Notice(ok: true, text: try await body(visit, store)))
            } catch {
                let refused = try Self.clientRefusal(error)
                return try await storePage(
                    visit, id: store, notice: Notice(ok: false, text: refused.message), typed: keepTyped ? visit.form : nil, status: refused.status)
            }
        }
    }

    /// A location from its two boxes: both or neither (nil); each a decimal number of degrees.
    static func location(_ form: ConsoleForm) throws -> GeoPoint? {
        switch (form.text("lat"), form.text("lng")) {
        case (nil, nil): return nil
        case (let lat?, let lng?):
            guard lat.utf8.count <= 20, lng.utf8.count <= 20, let latitude = Double(lat), let longitude = Double(lng) else {
                throw ChainError.invalidField("location", "Write the location as two decimal numbers of degrees, such as 18.0179 and -76.8099.")
            }
            return try StoreRules.location(GeoPoint(latitude: latitude, longitude: longitude))
        default:
            throw ChainError.invalidField("location", "Give both the latitude and the longitude, or neither.")
        }
    }

    static func aisleFields(_ form: ConsoleForm) throws -> Stores.AisleFields {
        Stores.AisleFields(
            code: form.text("code"), name: form.text("name"),
            walkOrder: try form.int("walkOrder", label: "The walk order", in: 0...10_000), zone: form.text("zone"))
    }

    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 100, number % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    func storesPage(_ visit: PageVisit, notice: Notice?, typed: ConsoleForm? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        var list: [(store: StoreRecord, aisles: [AisleRecord])] = []
        for store in try await stores.all(logger: visit.logger) {
            list.append((store, try await stores.aisles(of: store.id, logger: visit.logger)))
        }
        return StoresView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, stores: list, typed: typed
        ).response(status: status)
    }

    func storePage(
        _ visit: PageVisit, id: StoreID, notice: Notice?, typed: ConsoleForm? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let store = try await catalogue.store(id, logger: visit.logger)
        let aisles = try await stores.aisles(of: id, logger: visit.logger)
        return StoresView.store(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, store: store, aisles: aisles,
            fields: typed ?? StoresView.fields(store), isAdmin: visit.identity.role == .admin
        ).response(status: status)
    }
}

import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The catalogue import (issue 46): `/console/catalogue/import`, a CSV file uploaded (a multipart
/// form, `MultipartForm`) and previewed, then `/console/catalogue/import/{id}`: what it would
/// change, every refused row, Import and Cancel; while it runs, a progress bar the page refreshes
/// every two seconds (no script); when it ends, a sentence. A manager imports their store's own
/// columns; the chain's admin the full file, for the store they choose (`store`, kept in each
/// address and form). The operations `createCatalogueImport`, `getCatalogueImport`,
/// `startCatalogueImport` and `cancelCatalogueImport`, through the same `CatalogueImports`.
extension ConsoleController {
    func registerCatalogueImport(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/catalogue/import") { request, context in
            try await page(request, context, operation: "createCatalogueImport", store: { $0.storeID }) { visit in
                let query = ConsoleForm(encoded: request.uri.query ?? "")
                return try await uploadPage(visit, chosen: Self.importStore(visit, query), notice: nil, status: .ok)
            }
        }
        router.post("/console/catalogue/import") { request, context in
            try await page(request, context, operation: "createCatalogueImport", store: { $0.storeID }) { visit in
                let store = Self.importStore(visit, visit.form)
                guard let store else {
                    return try await uploadPage(visit, chosen: nil, notice: Notice(ok: false, text: "Choose a store."), status: .unprocessableContent)
                }
                guard let file = visit.form.files["file"], !file.fileName.isEmpty || !file.data.isEmpty else {
                    return try await uploadPage(
                        visit, chosen: store, notice: Notice(ok: false, text: "Choose a CSV file to import."), status: .unprocessableContent)
                }
                do {
                    let record = try await services.catalogueImports.preview(
                        file.data, fileName: file.fileName, store: store, by: visit.identity, logger: visit.logger)
                    return ConsolePage.redirect(Self.importPath(record.id, store: store, visit))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await uploadPage(visit, chosen: store, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.get("/console/catalogue/import/:id") { request, context in
            try await page(request, context, operation: "getCatalogueImport", store: { $0.storeID }) { visit in
                let query = ConsoleForm(encoded: request.uri.query ?? "")
                guard let store = Self.importStore(visit, query) else { throw CatalogueImportError.notFound }
                let record = try await services.catalogueImports.find(
                    try Self.importID(context), store: store, by: visit.identity, logger: visit.logger)
                return CatalogueImportView.page(session: visit.session, record: record, admin: visit.identity.role == .admin, notice: nil)
                    .response()
            }
        }
        router.post("/console/catalogue/import/:id/start") { request, context in
            try await page(request, context, operation: "startCatalogueImport", store: { $0.storeID }) { visit in
                try await importAction(visit, context) { id, store in
                    do {
                        _ = try await services.catalogueImports.start(id, store: store, by: visit.identity, logger: visit.logger)
                    } catch CatalogueImportError.alreadyStarted {
                        // A second click: the first started it; show it.
                    }
                }
            }
        }
        router.post("/console/catalogue/import/:id/cancel") { request, context in
            try await page(request, context, operation: "cancelCatalogueImport", store: { $0.storeID }) { visit in
                try await importAction(visit, context) { id, store in
                    _ = try await services.catalogueImports.cancel(id, store: store, by: visit.identity, logger: visit.logger)
                }
            }
        }
    }

    /// Start or cancel, then back to the import's page; a refusal (refused rows, committed
    /// already) is shown above it.
    private func importAction(
        _ visit: PageVisit, _ context: AppRequestContext, _ action: (CatalogueImportID, StoreID) async throws -> Void
    ) async throws -> Response {
        guard let store = Self.importStore(visit, visit.form) else { throw CatalogueImportError.notFound }
        let id = try Self.importID(context)
        do {
            try await action(id, store)
            return ConsolePage.redirect(Self.importPath(id, store: store, visit))
        } catch {
            let refused = try Self.clientRefusal(error)
            let record = try await services.catalogueImports.find(id, store: store, by: visit.identity, logger: visit.logger)
            return CatalogueImportView.page(
                session: visit.session, record: record, admin: visit.identity.role == .admin, notice: Notice(ok: false, text: refused.message)
            ).response(status: refused.status)
        }
    }

    private func uploadPage(_ visit: PageVisit, chosen: StoreID?, notice: Notice?, status: HTTPResponse.Status) async throws -> Response {
        let stores = visit.identity.role == .admin ? try await services.stores.all(logger: visit.logger) : []
        return CatalogueImportView.upload(session: visit.session, stores: stores, chosen: chosen, notice: notice).response(status: status)
    }

    /// The store an import is for: a manager's own, or the one the chain's admin chose (`store`).
    private static func importStore(_ visit: PageVisit, _ form: ConsoleForm) -> StoreID? {
        visit.identity.role == .admin ? form.text("store").flatMap(StoreID.init) : visit.identity.storeID
    }

    private static func importID(_ context: AppRequestContext) throws(CatalogueImportError) -> CatalogueImportID {
        guard let id = context.parameters.get("id").flatMap(CatalogueImportID.init) else { throw .notFound }
        return id
    }

    /// The import's page; the chain's admin's names its store.
    private static func importPath(_ id: CatalogueImportID, store: StoreID, _ visit: PageVisit) -> String {
        visit.identity.role == .admin ? "/console/catalogue/import/\(id)?store=\(store)" : "/console/catalogue/import/\(id)"
    }
}

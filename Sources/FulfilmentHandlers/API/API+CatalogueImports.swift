import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// CSV imports (issue 46): upload and preview, read, start, cancel. A store's manager imports
/// their store's own columns, the chain's admin the full file; rules, scoping, the worker and SQL
/// live in `Catalogue/CatalogueImports.swift` and beside it.
extension API {
    func createCatalogueImport(_ input: Operations.CreateCatalogueImport.Input) async throws -> Operations.CreateCatalogueImport.Output {
        let store = try importStore(input.path.storeId)
        guard case .csv(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the file as text/csv.") }
        var file = Data()
        for try await chunk in body {
            file.append(contentsOf: chunk)
            // Stop reading as soon as it is too large; never hold more than the limit.
            if file.count > CatalogueImports.maximumBytes { throw CatalogueImportError.fileTooLarge(limit: CatalogueImports.maximumBytes) }
        }
        // No body is no file (the contract requires one): said, not previewed as an empty file.
        guard !file.isEmpty else {
            throw APIError(.unprocessableContent, "invalid_field", "Send the CSV file as the request's body.", details: ["field": "body"])
        }
        let record = try await services.catalogueImports.preview(
            file, fileName: input.query.fileName, store: store, by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(record))))
    }

    func getCatalogueImport(_ input: Operations.GetCatalogueImport.Input) async throws -> Operations.GetCatalogueImport.Output {
        let record = try await services.catalogueImports.find(
            try importID(input.path.importId), store: try importStore(input.path.storeId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(record))))
    }

    func startCatalogueImport(_ input: Operations.StartCatalogueImport.Input) async throws -> Operations.StartCatalogueImport.Output {
        let record = try await services.catalogueImports.start(
            try importID(input.path.importId), store: try importStore(input.path.storeId), by: try Identity.required, logger: logger)
        return .accepted(.init(body: .json(.init(record))))
    }

    func cancelCatalogueImport(_ input: Operations.CancelCatalogueImport.Input) async throws -> Operations.CancelCatalogueImport.Output {
        let record = try await services.catalogueImports.cancel(
            try importID(input.path.importId), store: try importStore(input.path.storeId), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(record))))
    }

    private func importStore(_ text: String) throws(CatalogueImportError) -> StoreID {
        guard let id = StoreID(text) else { throw .storeNotFound }
        return id
    }

    private func importID(_ text: String) throws(CatalogueImportError) -> CatalogueImportID {
        guard let id = CatalogueImportID(text) else { throw .notFound }
        return id
    }
}

extension Components.Schemas.CatalogueImport {
    init(_ record: CatalogueImportRecord) {
        let rows = { (kind: String) in
            record.examples.filter { $0.kind == kind }.map {
                Components.Schemas.CatalogueImportRow(line: $0.line, sku: $0.sku, name: $0.name, fields: $0.fields)
            }
        }
        self.init(
            id: record.id.description, storeId: record.store.description, fileName: record.fileName,
            kind: .init(rawValue: record.kind.rawValue) ?? .store,
            status: .init(rawValue: record.status.rawValue) ?? .failed, rows: record.rows, new: record.new, changed: record.changed,
            unchanged: record.unchanged, refusedRows: record.problems.map { .init(line: $0.line, message: $0.message) }, newRows: rows("new"),
            changedRows: rows("changed"), progress: .init(done: record.progressDone, total: record.progressTotal), failure: record.failure,
            createdAt: record.createdAt, finishedAt: record.finishedAt)
    }
}

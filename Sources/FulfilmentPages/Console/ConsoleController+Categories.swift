import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Categories (issue 46), `/console/categories`, for the chain's admin: each category of the
/// catalogue with its description and picture, kept through `putCategoryDetails`.
extension ConsoleController {
    func registerCategories(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/categories") { request, context in
            try await page(request, context, operation: "putCategoryDetails") { visit in
                let categories = try await services.listings.categories(at: nil, logger: visit.logger)
                return CategoriesView.list(session: visit.session, categories: categories).response()
            }
        }
        router.get("/console/categories/edit") { request, context in
            try await page(request, context, operation: "putCategoryDetails") { visit in
                let name = ConsoleForm(encoded: request.uri.query ?? "").text("name") ?? ""
                return try await categoryPage(visit, name: name, notice: nil)
            }
        }
        router.post("/console/categories") { request, context in
            try await page(request, context, operation: "putCategoryDetails") { visit in
                let name = visit.form.text("name") ?? ""
                do {
                    let picture = try visit.form.text("imageProductId").map { try ProductID.parse($0, notFound: .productNotFound) }
                    let saved = try await catalogue.setCategoryDetails(
                        name, description: visit.form["description"] ?? "", image: picture, logger: visit.logger)
                    return try await categoryPage(
                        visit, name: saved.name, notice: Notice(ok: true, text: "Saved what the shop says about \(saved.name)."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await categoryPage(
                        visit, name: name, notice: Notice(ok: false, text: refused.message), typed: visit.form, status: refused.status)
                }
            }
        }
    }

    /// One category's form, with the stored details or what a refused form sent.
    private func categoryPage(
        _ visit: PageVisit, name: String, notice: Notice?, typed: ConsoleForm? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let cleaned = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(cleaned.unicodeScalars.count) else {
            throw CatalogueError.invalidField("name", "A category is 1 to 100 characters.")
        }
        let stored = try await services.listings.categories(at: nil, logger: visit.logger).first { $0.name == cleaned }
        let search = try ProductSearch(text: nil, storeID: nil, category: cleaned, sort: .name, limit: 100, cursor: nil)
        let pictures = try await catalogue.search(search, logger: visit.logger).items.filter(\.hasImage)
        let picture = typed.map { $0.text("imageProductId").flatMap(ProductID.init) } ?? stored?.imageProductID
        return CategoriesView.edit(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, name: cleaned,
            description: typed?["description"] ?? stored?.description ?? "", picture: picture, pictures: pictures
        ).response(status: status)
    }
}

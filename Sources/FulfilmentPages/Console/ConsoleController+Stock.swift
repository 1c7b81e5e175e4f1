import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Stock, `/console/stock`, for managers: the reorder report, product search with where each
/// product is, moving it (aisle/bay/shelf), setting on hand and minimum supply, the minimum age
/// of age-restricted goods. Each form is its API operation (`listStock`, `setStock`,
/// `setStockLocation`, `setStoreMinimumAge`) through the same code as the API handlers. Adding
/// staff is on the People page (`ConsoleController+People`).
extension ConsoleController {
    var stock: Stock { services.stock }
    var catalogue: Catalogue { services.catalogue }
    var minimumAges: MinimumAges { services.minimumAges }

    func registerStock(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/stock") { request, context in
            try await page(request, context, operation: "listStock", store: { $0.storeID }) { visit in
                // Decoded as a form is (`+` is a space), which Hummingbird's query parameters do not do.
                try await stockPage(visit, query: ConsoleForm(encoded: request.uri.query ?? "")["q"], notice: nil)
            }
        }
        router.post("/console/stock/:productId/level") { request, context in
            let product = context.parameters.get("productId") ?? ""
            return try await stockAction(request, context, operation: "setStock") { visit, scope in
                let id = try ProductID.parse(product, notFound: .productNotFound)
                let form = visit.form
                let level = try StockLevel(
                    onHand: try form.int("onHand", label: "On hand", in: StockLevel.range) ?? -1,
                    minSupply: try form.int("minSupply", label: "Minimum supply", in: StockLevel.range) ?? -1)
                // Conditional on the figure the page showed: a sale in between is never undone.
                try await stock.set(
                    level, expected: try form.int("expectedOnHand", in: StockLevel.range) ?? -1, product: id, in: scope,
                    by: visit.session.identity.userID, logger: visit.logger)
                return "Stock set: \(level.onHand) on hand, minimum \(level.minSupply)."
            }
        }
        router.post("/console/stock/:productId/location") { request, context in
            let product = context.parameters.get("productId") ?? ""
            return try await stockAction(request, context, operation: "setStockLocation") { visit, scope in
                let id = try ProductID.parse(product, notFound: .productNotFound)
                let location = try LocationDraft(
                    aisleCode: visit.form["aisleCode"] ?? "", bay: try visit.form.int("bay", label: "A bay", in: LocationDraft.bays),
                    shelf: visit.form.text("shelf"))
                try await stock.setLocation(location, product: id, in: scope, logger: visit.logger)
                return "Moved to aisle \(location.aisleCode)."
            }
        }
        router.post("/console/stock/:productId/minimum-age") { request, context in
            let product = context.parameters.get("productId") ?? ""
            return try await stockAction(request, context, operation: "setStoreMinimumAge") { visit, scope in
                let id = try ProductID.parse(product, notFound: .productNotFound)
                let ages = try await minimumAges.setForStore(
                    try visit.form.int("minimumAge", label: "A minimum age", in: ProductMinimumAge.range), product: id, in: scope,
                    logger: visit.logger)
                return ages.holding.map { "Now for customers aged \($0) or over." } ?? "No minimum age."
            }
        }
    }

    /// A manager's stock form: the operation's check for their own store, then `body`; its
    /// sentence (or the refusal's) is shown above the report.
    private func stockAction(
        _ request: Request, _ context: AppRequestContext, operation: String,
        _ body: @escaping @Sendable (PageVisit, StoreScope) async throws -> String
    ) async throws -> Response {
        try await storeForm(
            request, context, operation: operation,
            render: { try await stockPage($0, query: $0.form.text("q"), notice: $1, status: $2) }, body)
    }

    func stockPage(_ visit: PageVisit, query: String?, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let scope = try StoreScope(staff: visit.identity)
        let text = query?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let products: [ProductRecord]
        if text.isEmpty {
            products = try await stock.list(in: scope, lowOnly: true, limit: 100, cursor: nil, logger: visit.logger).items
        } else {
            let search = try ProductSearch(text: text, storeID: scope.store, category: nil, limit: 50, cursor: nil)
            products = try await catalogue.search(search, logger: visit.logger).items
        }
        let csrf = ConsolePage.csrfInput(visit.session)
        var rows: [(product: ProductRecord, minimumAge: ProductMinimumAge)] = []
        for product in products {
            rows.append((product, try await minimumAges.at(scope, product: product.id, logger: visit.logger)))
        }
        let checks = try await stock.checks(in: scope, logger: visit.logger)
        return StockView.page(session: visit.session, csrf: csrf, notice: notice, text: text, products: rows, checks: checks)
            .response(status: status)
    }
}

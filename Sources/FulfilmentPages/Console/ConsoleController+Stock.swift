import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Stock, `/console/stock`, for managers: the reorder report, product search with where each
/// product is, moving it (aisle/bay/shelf), setting on hand and minimum supply, the minimum age
/// of age-restricted goods, and adding staff to the store. Each form is its API operation
/// (`listStock`, `setStock`, `setStockLocation`, `setStoreMinimumAge`, `createStoreAccount`)
/// through the same code as the API handlers.
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
        router.post("/console/stock/staff") { request, context in
            try await stockAction(request, context, operation: "createStoreAccount") { visit, scope in
                guard let store = scope.store else { throw AccessError.forbidden }
                let form = visit.form
                let user = try await accounts.createStoreAccount(
                    email: form["email"] ?? "", name: form["name"] ?? "", password: form["password"] ?? "",
                    role: form.text("role") == "manager" ? .manager : .staff, store: store, logger: visit.logger)
                return "\(user.name) can now sign in as \(user.role.rawValue)."
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
        var rows: [HTML] = []
        for product in products {
            let ages = try await minimumAges.at(scope, product: product.id, logger: visit.logger)
            rows.append(stockRow(product, minimumAge: ages, query: text, csrf: csrf))
        }
        let noticeHTML = notice.map { $0.render(id: "stock-note") } ?? .empty
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"hint\">Nothing to show.</p>"
            : """
            <table id="stock" class="cards"><thead><tr><th>Product</th><th>Where</th><th>Stock</th><th>Age</th></tr></thead><tbody>\(rows)</tbody></table>
            """
        let heading = text.isEmpty ? "Reorder report: at or below minimum supply" : "Products matching “\(text)”"
        return ConsolePage(
            title: "Stock", session: visit.session,
            body: """
                <h1>Stock</h1>
                \(noticeHTML)
                <form method="get" action="/console/stock" class="actions">
                <label for="q">Find a product</label>
                <input id="q" name="q" value="\(text)" placeholder="name, SKU or barcode">
                <button type="submit">Search</button>
                <a class="button secondary" href="/console/stock">Reorder report</a>
                </form>
                <h2>\(heading)</h2>
                \(table)
                <h2>Add staff to this store</h2>
                <form method="post" action="/console/stock/staff" class="actions" id="add-staff">
                \(csrf)
                <input name="name" placeholder="Name" aria-label="Name" required>
                <input name="email" type="email" placeholder="Email" aria-label="Email" required>
                <input name="password" type="password" placeholder="Password (12+ characters)" aria-label="Password" required>
                <select name="role" aria-label="Role"><option value="staff">staff</option><option value="manager">manager</option></select>
                <button type="submit">Add</button>
                </form>
                """
        ).response(status: status)
    }

    /// One product's row; its age form sets the store's own age, at least the chain's.
    private func stockRow(_ product: ProductRecord, minimumAge ages: ProductMinimumAge, query: String, csrf: HTML) -> HTML {
        let stock = product.stock
        let base = "/console/stock/\(product.id)"
        let keep: HTML = "\(csrf)<input type=\"hidden\" name=\"q\" value=\"\(query)\">"
        let location = stock?.location
        return """
            <tr id="product-\(product.sku)">
            <td><strong>\(product.name)</strong><br><span class="hint">SKU \(product.sku)\(product.barcode.map { " · \($0)" } ?? "")</span></td>
            <td data-label="Where">\(location?.sentence ?? LocationRecord.notLocatedSentence)
            <form method="post" action="\(base)/location" class="fields">\(keep)
            <label class="field">Aisle <input name="aisleCode" value="\(location?.aisleCode ?? "")" size="4"></label>
            <label class="field">Bay <input name="bay" type="number" value="\(location?.bay.map(String.init) ?? "")"></label>
            <label class="field">Shelf <input name="shelf" value="\(location?.shelf ?? "")" size="3"></label>
            <button type="submit">Move</button></form></td>
            <td data-label="Stock">\(stock.map { "\($0.onHand) on hand, \($0.reserved) held" } ?? "not carried")
            <form method="post" action="\(base)/level" class="fields">\(keep)
            <input name="expectedOnHand" type="hidden" value="\(stock?.onHand ?? 0)">
            <label class="field">On hand <input name="onHand" type="number" min="0" value="\(stock?.onHand ?? 0)" class="count"></label>
            <label class="field">Minimum <input name="minSupply" type="number" min="0" value="\(stock?.minSupply ?? 0)" class="count"></label>
            <button type="submit">Set</button></form></td>
            <td data-label="Age">\(ages.holding.map { "\($0)+" } ?? "none")\(ages.chain.map { " (chain: \($0)+)" } ?? "")
            <form method="post" action="\(base)/minimum-age" class="fields">\(keep)
            <label class="field">This store <input name="minimumAge" type="number" min="1" max="120" value="\(ages.store.map(String.init) ?? "")"></label>
            <button type="submit">Set</button></form></td>
            </tr>
            """
    }
}

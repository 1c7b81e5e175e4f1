import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Sales, `/console/sales`, for managers: the store's sales running, upcoming and ended, each
/// with its product, sale price, regular price and window; a form to put a product on sale; and
/// an End button on each running or upcoming one. Staff, who may list sales, see the lists alone. Each is its API operation (`listSales`,
/// `createSale`, `endSale`) through `Sales`, as the handlers call it. Times are on the store's
/// clock, as the form's labels say (``TimeText/zone``).
extension ConsoleController {
    var sales: Sales { services.sales }

    func registerSales(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/sales") { request, context in
            try await page(request, context, operation: "listSales", store: { $0.storeID }) { visit in
                try await salesPage(visit, notice: nil)
            }
        }
        router.post("/console/sales") { request, context in
            try await saleAction(request, context, operation: "createSale") { visit, scope in
                let form = visit.form
                guard let product = form.text("productId").flatMap(ProductID.init) else {
                    throw SaleError.invalidField("productId", "Choose a product.")
                }
                guard let amount = form.text("price").flatMap(Self.saleAmount) else {
                    throw SaleError.invalidField("price", "Write the sale price as an amount such as 12.50.")
                }
                guard let startsAt = form.text("startsAt").flatMap(Self.storeMinute) else {
                    throw SaleError.invalidField("startsAt", "Give the start as a date and time.")
                }
                guard let endsAt = form.text("endsAt").flatMap(Self.storeMinute) else {
                    throw SaleError.invalidField("endsAt", "Give the end as a date and time.")
                }
                let price = try await prices.at(scope, product: product, logger: visit.logger)
                let sale = try await sales.create(
                    Sale.Draft(
                        product: product, price: Money(amount: amount, currency: price.catalog.currency), startsAt: startsAt, endsAt: endsAt),
                    by: visit.identity.userID, in: scope, logger: visit.logger)
                return
                    "\(sale.productName) is on sale at \(MoneyText.format(sale.price.amount, sale.price.currency)) until \(TimeText.format(sale.endsAt))."
            }
        }
        router.post("/console/sales/:saleId/end") { request, context in
            let id = context.parameters.get("saleId") ?? ""
            return try await saleAction(request, context, operation: "endSale") { visit, scope in
                guard let saleID = SaleID(id) else { throw SaleError.saleNotFound }
                let sale = try await sales.end(saleID, by: visit.identity.userID, in: scope, logger: visit.logger)
                return sale.state == .withdrawn ? "The sale of \(sale.productName) was withdrawn." : "The sale of \(sale.productName) ended."
            }
        }
    }

    /// "450" or "450.50" as minor units (45050), from a form: whole units and at most two decimals.
    static func saleAmount(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard let whole = parts.first, (1...11).contains(whole.count), digits(whole), let units = Int64(whole) else { return nil }
        guard parts.count == 2 else { return units * 100 }
        guard (1...2).contains(parts[1].count), digits(parts[1]), let fraction = Int64(parts[1]) else { return nil }
        return units * 100 + (parts[1].count == 1 ? fraction * 10 : fraction)
    }

    /// A `datetime-local` value (`2026-12-01T09:30`, seconds optional) read on the store's clock
    /// (``TimeText/zone``, UTC without one), as the form's labels say.
    static func storeMinute(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeText.zone ?? TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withFullDate, .withTime, .withDashSeparatorInDate, .withColonSeparatorInTime]
        let padded = text.count == 16 ? text + ":00" : text
        return formatter.date(from: padded)
    }

    /// A manager's sale form: the operation's check for their own store, then `body`; its
    /// sentence (or the refusal's) is shown above the lists.
    private func saleAction(
        _ request: Request, _ context: AppRequestContext, operation: String,
        _ body: @escaping @Sendable (PageVisit, StoreScope) async throws -> String
    ) async throws -> Response {
        try await storeForm(request, context, operation: operation, render: { try await salesPage($0, notice: $1, status: $2) }, body)
    }

    func salesPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let scope = try StoreScope(staff: visit.identity)
        let csrf = ConsolePage.csrfInput(visit.session)
        let manages = visit.identity.role == .manager
        var lists: [Sale.State: [Sale]] = [:]
        for (state, _) in SalesView.groups {
            lists[state] = try await sales.list(state, in: scope, limit: 100, cursor: nil, logger: visit.logger).items
        }
        // The products the form offers: the store's first 100 by name.
        let saleProducts = manages ? try await stock.list(in: scope, lowOnly: false, limit: 100, cursor: nil, logger: visit.logger).items : []
        return SalesView.page(session: visit.session, csrf: csrf, notice: notice, sales: lists, manages: manages, saleProducts: saleProducts)
            .response(status: status)
    }
}

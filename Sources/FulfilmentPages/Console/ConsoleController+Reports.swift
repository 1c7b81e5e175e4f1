import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Reports (issue 46), each a page of charts drawn on the server with their tables over a chosen
/// range, and the same numbers as CSV (`.csv?by=day|hour`): `/console/reports/sales`, orders and
/// sales per day and per hour with the average basket; `/console/reports/on-time`, orders packed
/// before their slot started; `/console/reports/desk`, the wait from "I'm here" to the hand-over
/// per hour of arrival (per hour only: its CSV ignores `by`); `/console/reports/picking`, lines
/// picked per hour, short picks and substitutions (`by=day|product`); `/console/reports/products`,
/// best sellers, items never collected, hours out of stock in the range and what is out of stock
/// now (`by=product|uncollected|outages|stock`);
/// `/console/reports/coupons`, redemptions and discount per coupon and the uplift (per coupon
/// only). A manager reads their store's; the chain's admin chooses a store (`store`). Each stands
/// for its API operation, through the same `Reports` as the API.
extension ConsoleController {
    func registerReports(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/reports/sales") { request, context in
            try await reportPage(
                request, context, operation: "getSalesReport",
                load: { store, chosen, visit in
                    try await services.reports.sales(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: SalesReportView.page)
        }
        router.get("/console/reports/sales.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getSalesReport",
                load: { store, query, visit in
                    try await services.reports.sales(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, by in
                    by == "hour"
                        ? ("sales", report.range, "hour", SalesReportCSV.hours(report)) : ("sales", report.range, "day", SalesReportCSV.days(report))
                })
        }
        router.get("/console/reports/on-time") { request, context in
            try await reportPage(
                request, context, operation: "getOnTimeReport",
                load: { store, chosen, visit in
                    try await services.reports.onTime(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: OnTimeReportView.page)
        }
        router.get("/console/reports/on-time.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getOnTimeReport",
                load: { store, query, visit in
                    try await services.reports.onTime(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, by in
                    by == "hour"
                        ? ("on-time", report.range, "hour", OnTimeReportCSV.hours(report))
                        : ("on-time", report.range, "day", OnTimeReportCSV.days(report))
                })
        }
        router.get("/console/reports/desk") { request, context in
            try await reportPage(
                request, context, operation: "getDeskReport",
                load: { store, chosen, visit in
                    try await services.reports.desk(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: DeskReportView.page)
        }
        router.get("/console/reports/desk.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getDeskReport",
                load: { store, query, visit in
                    try await services.reports.desk(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, _ in ("desk", report.range, "hour", DeskReportCSV.hours(report)) })
        }
        router.get("/console/reports/picking") { request, context in
            try await reportPage(
                request, context, operation: "getPickingReport",
                load: { store, chosen, visit in
                    try await services.reports.picking(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: PickingReportView.page)
        }
        router.get("/console/reports/picking.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getPickingReport",
                load: { store, query, visit in
                    try await services.reports.picking(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, by in
                    by == "product"
                        ? ("picking", report.range, "product", PickingReportCSV.products(report))
                        : ("picking", report.range, "day", PickingReportCSV.days(report))
                })
        }
        router.get("/console/reports/products") { request, context in
            try await reportPage(
                request, context, operation: "getProductsReport",
                load: { store, chosen, visit in
                    try await services.reports.products(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: ProductsReportView.page)
        }
        router.get("/console/reports/products.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getProductsReport",
                load: { store, query, visit in
                    try await services.reports.products(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, by in
                    switch by {
                    case "uncollected": return ("products", report.range, "uncollected", ProductsReportCSV.neverCollected(report))
                    case "stock": return ("products", report.range, "stock", ProductsReportCSV.outOfStock(report))
                    case "outages": return ("products", report.range, "outages", ProductsReportCSV.outOfStockHours(report))
                    default: return ("products", report.range, "product", ProductsReportCSV.bestSellers(report))
                    }
                })
        }
        router.get("/console/reports/coupons") { request, context in
            try await reportPage(
                request, context, operation: "getCouponsReport",
                load: { store, chosen, visit in
                    try await services.reports.coupons(of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                }, render: CouponsReportView.page)
        }
        router.get("/console/reports/coupons.csv") { request, context in
            try await reportCSV(
                request, context, operation: "getCouponsReport",
                load: { store, query, visit in
                    try await services.reports.coupons(
                        of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                },
                csv: { report, _ in ("coupons", report.range, "coupon", CouponsReportCSV.coupons(report)) })
        }
    }

    /// A report's page: the range form, and the report once a store is known (a manager's own,
    /// or the one the admin chose); a refused range is the form again with its sentence.
    private func reportPage<Report: Sendable>(
        _ request: Request, _ context: AppRequestContext, operation: String,
        load: @escaping @Sendable (StoreID, ReportFrame.Chosen, PageVisit) async throws -> Report,
        render: @escaping @Sendable (ConsoleSession, ReportFrame.Chosen, [StoreRecord], Report?, Notice?) -> ConsolePage
    ) async throws -> Response {
        try await page(request, context, operation: operation) { visit in
            let query = ConsoleForm(encoded: request.uri.query ?? "")
            let stores = visit.identity.role == .admin ? try await services.stores.all(logger: visit.logger) : []
            let chosen = ReportFrame.Chosen(store: Self.reportStore(visit, query), from: query.text("from"), to: query.text("to"))
            guard let store = chosen.store else {
                return render(visit.session, chosen, stores, nil, nil).response()
            }
            do {
                let report = try await load(store, chosen, visit)
                return render(visit.session, chosen, stores, report, nil).response()
            } catch {
                let refused = try Self.clientRefusal(error)
                return render(visit.session, chosen, stores, nil, Notice(ok: false, text: refused.message)).response(status: refused.status)
            }
        }
    }

    /// A report's numbers as a CSV download, per what `by` names (the report says what it offers:
    /// a day, an hour, a product, a coupon), named after the report, what a row is and its range.
    private func reportCSV<Report: Sendable>(
        _ request: Request, _ context: AppRequestContext, operation: String,
        load: @escaping @Sendable (StoreID, ConsoleForm, PageVisit) async throws -> Report,
        csv: @escaping @Sendable (Report, String?) -> (name: String, range: ReportRange, by: String, text: String)
    ) async throws -> Response {
        try await page(request, context, operation: operation) { visit in
            let query = ConsoleForm(encoded: request.uri.query ?? "")
            guard let store = Self.reportStore(visit, query) else {
                throw ReportError.storeNotFound
            }
            let file = csv(try await load(store, query, visit), query.text("by"))
            var headers = ConsolePage.headers(contentType: "text/csv; charset=utf-8")
            headers[.contentDisposition] =
                "attachment; filename=\"\(file.name)-by-\(file.by)-\(file.range.from)-\(file.range.to).csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(string: file.text)))
        }
    }

    /// The store a report is of: a manager's own, or the one the chain's admin chose (`store`).
    private static func reportStore(_ visit: PageVisit, _ query: ConsoleForm) -> StoreID? {
        visit.identity.storeID ?? query.text("store").flatMap(StoreID.init)
    }
}

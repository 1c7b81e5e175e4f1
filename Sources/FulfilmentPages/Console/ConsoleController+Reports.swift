import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Reports (issue 46): `/console/reports/sales`, orders and sales per day and per hour with the
/// average basket, as charts drawn on the server with their tables, over a chosen range; and the
/// same numbers as CSV (`/console/reports/sales.csv?by=day|hour`). A manager reads their store's;
/// the chain's admin chooses a store (`store`). `getSalesReport`, through the same `Reports` as
/// the API.
extension ConsoleController {
    func registerReports(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/reports/sales") { request, context in
            try await page(request, context, operation: "getSalesReport") { visit in
                let query = ConsoleForm(encoded: request.uri.query ?? "")
                let stores = visit.identity.role == .admin ? try await services.stores.all(logger: visit.logger) : []
                let chosen = SalesReportView.Chosen(store: Self.reportStore(visit, query), from: query.text("from"), to: query.text("to"))
                guard let store = chosen.store else {
                    return SalesReportView.page(session: visit.session, chosen: chosen, stores: stores, report: nil, notice: nil).response()
                }
                do {
                    let report = try await services.reports.sales(
                        of: store, from: chosen.from, to: chosen.to, by: visit.identity, logger: visit.logger)
                    return SalesReportView.page(session: visit.session, chosen: chosen, stores: stores, report: report, notice: nil).response()
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return SalesReportView.page(
                        session: visit.session, chosen: chosen, stores: stores, report: nil, notice: Notice(ok: false, text: refused.message)
                    ).response(status: refused.status)
                }
            }
        }
        router.get("/console/reports/sales.csv") { request, context in
            try await page(request, context, operation: "getSalesReport") { visit in
                let query = ConsoleForm(encoded: request.uri.query ?? "")
                guard let store = Self.reportStore(visit, query) else {
                    throw ReportError.storeNotFound
                }
                let report = try await services.reports.sales(
                    of: store, from: query.text("from"), to: query.text("to"), by: visit.identity, logger: visit.logger)
                let byHour = query.text("by") == "hour"
                var headers = ConsolePage.headers(contentType: "text/csv; charset=utf-8")
                headers[.contentDisposition] =
                    "attachment; filename=\"sales-\(byHour ? "by-hour" : "by-day")-\(report.range.from)-\(report.range.to).csv\""
                let csv = byHour ? SalesReportCSV.hours(report) : SalesReportCSV.days(report)
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(string: csv)))
            }
        }
    }

    /// The store a report is of: a manager's own, or the one the chain's admin chose (`store`).
    private static func reportStore(_ visit: PageVisit, _ query: ConsoleForm) -> StoreID? {
        visit.identity.storeID ?? query.text("store").flatMap(StoreID.init)
    }
}

import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Reports (issue 46), each a page of charts drawn on the server with their tables over a chosen
/// range, and the same numbers as CSV (`.csv?by=day|hour`): `/console/reports/sales`, orders and
/// sales per day and per hour with the average basket; `/console/reports/on-time`, orders packed
/// before their slot started; `/console/reports/desk`, the wait from "I'm here" to the hand-over
/// per hour of arrival (per hour only: its CSV ignores `by`). A manager reads their store's; the chain's admin chooses a store
/// (`store`). Each stands for its API operation, through the same `Reports` as the API.
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
                csv: { report, byHour in
                    ("sales", report.range, byHour ? SalesReportCSV.hours(report) : SalesReportCSV.days(report))
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
                csv: { report, byHour in
                    ("on-time", report.range, byHour ? OnTimeReportCSV.hours(report) : OnTimeReportCSV.days(report))
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
                csv: { report, _ in ("desk", report.range, DeskReportCSV.hours(report)) })
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

    /// A report's numbers as a CSV download, per day or per hour (`by=hour`), named after the
    /// report and its range.
    private func reportCSV<Report: Sendable>(
        _ request: Request, _ context: AppRequestContext, operation: String,
        load: @escaping @Sendable (StoreID, ConsoleForm, PageVisit) async throws -> Report,
        csv: @escaping @Sendable (Report, Bool) -> (name: String, range: ReportRange, text: String)
    ) async throws -> Response {
        try await page(request, context, operation: operation) { visit in
            let query = ConsoleForm(encoded: request.uri.query ?? "")
            guard let store = Self.reportStore(visit, query) else {
                throw ReportError.storeNotFound
            }
            let byHour = query.text("by") == "hour"
            let file = csv(try await load(store, query, visit), byHour)
            var headers = ConsolePage.headers(contentType: "text/csv; charset=utf-8")
            headers[.contentDisposition] =
                "attachment; filename=\"\(file.name)-\(byHour ? "by-hour" : "by-day")-\(file.range.from)-\(file.range.to).csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(string: file.text)))
        }
    }

    /// The store a report is of: a manager's own, or the one the chain's admin chose (`store`).
    private static func reportStore(_ visit: PageVisit, _ query: ConsoleForm) -> StoreID? {
        visit.identity.storeID ?? query.text("store").flatMap(StoreID.init)
    }
}

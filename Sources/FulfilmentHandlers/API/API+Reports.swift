import Foundation
import FulfilmentDomain

/// Reports (issue 46): a store's manager reads their store's, the chain's admin any store's.
extension API {
    func getSalesReport(_ input: Operations.GetSalesReport.Input) async throws -> Operations.GetSalesReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.sales(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.SalesReport {
    init(_ report: SalesReport) {
        let money = { (amount: Int64) in Components.Schemas.Money(amount: amount, currency: report.currency) }
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, orders: Int64(report.total.orders), sales: money(report.total.sales),
            averageBasket: money(report.total.averageBasket), cancelled: Int64(report.total.cancelled),
            days: report.days.map {
                .init(date: $0.day.description, orders: Int64($0.bucket.orders), sales: money($0.bucket.sales), cancelled: Int64($0.bucket.cancelled))
            },
            hours: report.hours.enumerated().map { hour, bucket in
                .init(hour: hour, orders: Int64(bucket.orders), sales: money(bucket.sales), cancelled: Int64(bucket.cancelled))
            })
    }
}

extension API {
    func getOnTimeReport(_ input: Operations.GetOnTimeReport.Input) async throws -> Operations.GetOnTimeReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.onTime(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.OnTimeReport {
    init(_ report: OnTimeReport) {
        let total = report.total
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, onTime: Int64(total.onTime), late: Int64(total.late), notYetDue: Int64(total.notYetDue),
            cancelled: Int64(total.cancelled), onTimeShare: total.onTimeShare, placedToReady: .init(report.placedToReady),
            readyToCollected: .init(report.readyToCollected),
            days: report.days.map {
                .init(
                    date: $0.day.description, onTime: Int64($0.bucket.onTime), late: Int64($0.bucket.late),
                    notYetDue: Int64($0.bucket.notYetDue), cancelled: Int64($0.bucket.cancelled), onTimeShare: $0.bucket.onTimeShare)
            },
            hours: report.hours.enumerated().map { hour, bucket in
                .init(hour: hour, onTime: Int64(bucket.onTime), late: Int64(bucket.late), onTimeShare: bucket.onTimeShare)
            })
    }
}

extension Components.Schemas.MinutePercentiles {
    init(_ percentiles: MinutePercentiles) {
        self.init(count: Int64(percentiles.count), p50Minutes: percentiles.p50, p90Minutes: percentiles.p90)
    }
}

extension API {
    func getDeskReport(_ input: Operations.GetDeskReport.Input) async throws -> Operations.GetDeskReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.desk(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.DeskReport {
    init(_ report: DeskReport) {
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, arrived: Int64(report.total.arrived), handedOver: .init(report.total.wait),
            hours: report.hours.enumerated().map { hour, bucket in .init(hour: hour, arrived: Int64(bucket.arrived), handedOver: .init(bucket.wait)) }
        )
    }
}

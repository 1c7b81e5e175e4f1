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

extension API {
    func getPickingReport(_ input: Operations.GetPickingReport.Input) async throws -> Operations.GetPickingReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.picking(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.PickingReport {
    init(_ report: PickingReport) {
        let total = report.total
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, pickLists: Int64(total.pickLists), lines: Int64(total.lines), short: Int64(total.short),
            minutes: (total.minutes * 10).rounded() / 10, linesPerHour: total.linesPerHour, medianListLinesPerHour: report.medianListLinesPerHour,
            shortShare: total.shortShare, substitutions: .init(report.substitutions), substitutionRate: report.substitutionRate,
            mostSubstituted: report.mostSubstituted.map {
                .init(productId: $0.product.description, name: $0.name, substitutions: .init($0.substitutions))
            },
            days: report.days.map {
                .init(
                    date: $0.day.description, pickLists: Int64($0.bucket.pickLists), lines: Int64($0.bucket.lines),
                    short: Int64($0.bucket.short), minutes: ($0.bucket.minutes * 10).rounded() / 10, linesPerHour: $0.bucket.linesPerHour)
            })
    }
}

extension Components.Schemas.SubstitutionCounts {
    init(_ counts: PickingReport.Substitutions) {
        self.init(
            proposed: Int64(counts.proposed), accepted: Int64(counts.accepted), refused: Int64(counts.refused),
            awaiting: Int64(counts.awaiting), acceptedShare: counts.acceptedShare, refusedShare: counts.refusedShare)
    }
}

extension API {
    func getCouponsReport(_ input: Operations.GetCouponsReport.Input) async throws -> Operations.GetCouponsReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.coupons(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.CouponsReport {
    init(_ report: CouponReport) {
        let orders = { (bucket: CouponReport.Bucket) in
            Components.Schemas.CouponOrders(
                orders: Int64(bucket.orders), sales: .init(amount: bucket.sales, currency: report.currency),
                discount: .init(amount: bucket.discount, currency: report.currency),
                averageBasket: .init(amount: bucket.averageBasket, currency: report.currency))
        }
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, withCoupon: orders(report.withCoupon), withoutCoupon: orders(report.withoutCoupon),
            givenBack: Int64(report.givenBack), uplift: report.uplift, couponCount: Int64(report.couponCount),
            coupons: report.coupons.map {
                .init(
                    couponId: $0.coupon.description, code: $0.code, chainWide: $0.chainWide, redeemed: orders($0.redeemed),
                    givenBack: Int64($0.givenBack))
            })
    }
}

extension API {
    func getProductsReport(_ input: Operations.GetProductsReport.Input) async throws -> Operations.GetProductsReport.Output {
        guard let store = StoreID(input.path.storeId) else { throw ReportError.storeNotFound }
        let report = try await services.reports.products(
            of: store, from: input.query.from, to: input.query.to, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(report))))
    }
}

extension Components.Schemas.ProductsReport {
    init(_ report: ProductReport) {
        let money = { (amount: Int64) in Components.Schemas.Money(amount: amount, currency: report.currency) }
        let totals = { (totals: ProductReport.Totals) in
            Components.Schemas.ProductTotals(
                orders: Int64(totals.orders), lines: Int64(totals.lines), units: Int64(totals.units), amount: money(totals.amount),
                products: Int64(totals.products))
        }
        let line = { (line: ProductReport.Line) in
            Components.Schemas.ProductSales(
                productId: line.product.description, name: line.name, lines: Int64(line.lines), units: Int64(line.units), amount: money(line.amount))
        }
        self.init(
            storeId: report.store.description, from: report.range.from.description, to: report.range.to.description,
            timeZone: report.zone.identifier, sold: totals(report.sold), bestSellers: report.bestSellers.map(line),
            uncollected: totals(report.uncollected), neverCollected: report.neverCollected.map(line),
            outOfStockCount: Int64(report.outOfStockCount),
            outOfStock: report.outOfStock.map {
                .init(
                    productId: $0.product.description, name: $0.name, onHand: Int64($0.onHand), reserved: Int64($0.reserved), since: $0.since,
                    hoursOut: report.hoursOut($0).map { Int64($0) })
            },
            outOfStockHoursCount: Int64(report.outOfStockHoursCount),
            outOfStockHours: report.outOfStockHours.map {
                .init(productId: $0.product.description, name: $0.name, outages: Int64($0.outages), hours: $0.hours)
            })
    }
}

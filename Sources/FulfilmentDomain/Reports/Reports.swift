import Foundation
import Logging

/// Reports a manager reads for their store, and the chain's admin for any (issue 46): counted
/// in SQL from what the orders already record, over at most a year, bounded before counting.
package struct Reports: Sendable {
    package let database: Database
    package let clock: @Sendable () -> Date

    /// Orders and sales of `store` over the range `from`/`to` name (`ReportRange`), per day and
    /// hour in the store's time zone. Another store's (for a manager) is not found.
    package func sales(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> SalesReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.sales(
            of: store, in: scope, range: range, zone: place.zone, currency: place.currency, on: database.client, logger: logger)
    }

    /// Orders ready before their pickup slot started, per day and per hour of the slot's start,
    /// with how long packing and collecting took (`OnTimeReport`).
    package func onTime(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> OnTimeReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.onTime(
            of: store, in: scope, range: range, zone: place.zone, now: clock(), on: database.client, logger: logger)
    }

    /// How long customers waited from "I'm here" to the hand-over, per hour of the day they
    /// arrived and over the range (`DeskReport`).
    package func desk(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> DeskReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.desk(of: store, in: scope, range: range, zone: place.zone, on: database.client, logger: logger)
    }

    /// Lines picked per hour of the pick lists completed in the range, lines closed short, and
    /// the substitutes given on their orders with the most-substituted products (`PickingReport`).
    package func picking(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> PickingReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.picking(of: store, in: scope, range: range, zone: place.zone, on: database.client, logger: logger)
    }

    /// Redemptions and discount per coupon over the orders placed in the range, and the average
    /// basket with a coupon against without (`CouponReport`).
    package func coupons(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> CouponReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.coupons(
            of: store, in: scope, range: range, zone: place.zone, currency: place.currency, on: database.client, logger: logger)
    }

    /// Best sellers and items never collected over the orders placed in the range, and what is
    /// out of stock now (`ProductReport`).
    package func products(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws -> ProductReport {
        let (scope, place, range) = try await bounds(of: store, from: from, to: to, by: identity, logger: logger)
        return try await ReportQueries.products(
            of: store, in: scope, range: range, zone: place.zone, currency: place.currency, now: clock(), on: database.client,
            logger: logger)
    }

    /// The caller's scope, the store's zone and currency, and the range read on the store's
    /// calendar: a store the caller may not read is not found, a range out of bounds refused,
    /// before anything is counted.
    private func bounds(of store: StoreID, from: String?, to: String?, by identity: Identity, logger: Logger) async throws
        -> (StoreScope, (zone: TimeZone, currency: String), ReportRange)
    {
        let scope = try StoreScope(managerOrAdmin: identity)
        guard let place = try await ReportQueries.store(store, in: scope, on: database.client, logger: logger) else {
            throw ReportError.storeNotFound
        }
        let range = try ReportRange(from: from, to: to, today: LocalDate(clock(), in: place.zone))
        return (scope, place, range)
    }
}

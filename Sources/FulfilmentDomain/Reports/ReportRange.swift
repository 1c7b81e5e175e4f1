import Foundation

/// The days a report covers (issue 46): `from` to `to`, both included, as dates of the store's
/// calendar, so "Monday" is the store's Monday wherever the server runs. Read from a client's
/// `YYYY-MM-DD` text and bounded before anything is counted: a year at most, dates between
/// 2000 and 2100, `from` not after `to`.
package struct ReportRange: Sendable, Equatable {
    /// `2026-11-28` as a date of the store's calendar between 2000 and 2100; nil for anything
    /// else, an impossible date included (`2026-02-30`).
    package static func day(_ text: String) -> LocalDate? {
        guard let day = LocalDate(text), years.contains(day.components.year) else { return nil }
        return day
    }

    package var from: LocalDate
    package var to: LocalDate

    /// The years a report may name: nothing before the shop existed, nothing absurd.
    package static let years = 2000...2100
    /// The longest report, in days: a year, leap years included.
    package static let maximumDays = 366
    /// Without a range: the last four weeks, today included.
    package static let defaultDays = 28

    /// Every day of the range, in order.
    package var days: [LocalDate] { (from.day...to.day).map(LocalDate.init(day:)) }

    /// `from` and `to` as a client sent them (either may be missing: the last four weeks to
    /// `today`, or from `from`, or up to `to`).
    package init(from: String?, to: String?, today: LocalDate) throws(ReportError) {
        let end: LocalDate
        if let to {
            guard let day = Self.day(to) else { throw .invalidDate("to") }
            end = day
        } else if let from, let start = Self.day(from) {
            end = min(start.adding(days: Self.defaultDays - 1), max(start, today))
        } else {
            end = today
        }
        let start: LocalDate
        if let from {
            guard let day = Self.day(from) else { throw .invalidDate("from") }
            start = day
        } else {
            start = end.adding(days: -(Self.defaultDays - 1))
        }
        guard start <= end else { throw .rangeBackwards }
        guard end.day - start.day < Self.maximumDays else { throw .rangeTooLong }
        self.from = start
        self.to = end
    }
}

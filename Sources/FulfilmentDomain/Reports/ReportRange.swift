import Foundation

/// The days a report covers (issue 46): `from` to `to`, both included, as dates of the store's
/// calendar, so "Monday" is the store's Monday wherever the server runs. Read from a client's
/// `YYYY-MM-DD` text and bounded before anything is counted: a year at most, dates between
/// 2000 and 2100, `from` not after `to`.
package struct ReportRange: Sendable, Equatable {
    /// A calendar date, without a zone: the day it is at the store.
    package struct Day: Sendable, Equatable, Comparable, Hashable, CustomStringConvertible {
        package var year: Int
        package var month: Int
        package var day: Int

        package init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// `2026-11-28`; nil for anything else, an impossible date included (`2026-02-30`).
        package init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                ReportRange.years.contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day)
            else { return nil }
            self.init(year: year, month: month, day: day)
        }

        /// The day `date` is in `zone`.
        package init(_ date: Date, in zone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            self.init(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1)
        }

        package var description: String {
            "\(String(format: "%04d", year))-\(String(format: "%02d", month))-\(String(format: "%02d", day))"
        }

        /// Days since 1970-01-01 (proleptic Gregorian), for counting and stepping without a zone.
        package var ordinal: Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yoe = y - era * 400
            let mp = (month + 9) % 12
            let doy = (153 * mp + 2) / 5 + day - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            return era * 146_097 + doe - 719_468
        }

        /// The day `ordinal` counts (its inverse).
        package init(ordinal: Int) {
            let z = ordinal + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let day = doy - (153 * mp + 2) / 5 + 1
            let month = mp < 10 ? mp + 3 : mp - 9
            self.init(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
        }

        package func adding(days: Int) -> Day { Day(ordinal: ordinal + days) }

        package static func < (a: Day, b: Day) -> Bool { a.ordinal < b.ordinal }

        static func days(inMonth month: Int, of year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }

    package var from: Day
    package var to: Day

    /// The years a report may name: nothing before the shop existed, nothing absurd.
    package static let years = 2000...2100
    /// The longest report, in days: a year, leap years included.
    package static let maximumDays = 366
    /// Without a range: the last four weeks, today included.
    package static let defaultDays = 28

    /// Every day of the range, in order.
    package var days: [Day] { (from.ordinal...to.ordinal).map(Day.init(ordinal:)) }

    /// `from` and `to` as a client sent them (either may be missing: the last four weeks to
    /// `today`, or from `from`, or up to `to`).
    package init(from: String?, to: String?, today: Day) throws(ReportError) {
        let end: Day
        if let to {
            guard let day = Day(to) else { throw .invalidDate("to") }
            end = day
        } else if let from, let start = Day(from) {
            end = min(start.adding(days: Self.defaultDays - 1), max(start, today))
        } else {
            end = today
        }
        let start: Day
        if let from {
            guard let day = Day(from) else { throw .invalidDate("from") }
            start = day
        } else {
            start = end.adding(days: -(Self.defaultDays - 1))
        }
        guard start <= end else { throw .rangeBackwards }
        guard end.ordinal - start.ordinal < Self.maximumDays else { throw .rangeTooLong }
        self.from = start
        self.to = end
    }

    package init(from: Day, to: Day) {
        self.from = from
        self.to = to
    }
}

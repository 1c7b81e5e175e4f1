import Foundation

/// A calendar date as a store's clock on the wall shows it (no zone, no time): what opening
/// hours and closures are written in. Pure arithmetic on the proleptic Gregorian calendar
/// (days since 1970-01-01), so slot generation does not depend on the server's zone or locale.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var day: Int

    public init(day: Int) { self.day = day }

    /// The last second of the year 9999 (seconds since 1970, UTC), the latest a date here or a
    /// four-digit RFC 3339 year can name: what a client's time is bounded to (issue 41).
    package static let lastSecond = 253_402_300_799

    /// Nil unless `year-month-day` is a real date between years 1 and 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.length(ofMonth: month, year: year)).contains(day) else {
            return nil
        }
        self.day = Self.days(year: year, month: month, day: day)
    }

    /// Reads `YYYY-MM-DD`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The local date of `instant` in `zone`.
    public init(_ instant: Date, in zone: TimeZone) {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        self.day = Int((Double(local) / 86_400).rounded(.down))
    }

    public var components: (year: Int, month: Int, day: Int) { Self.civil(day) }

    /// ISO weekday: 1 Monday ... 7 Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { ((day % 7) + 7 + 3) % 7 + 1 }

    public func adding(days: Int) -> LocalDate { LocalDate(day: day + days) }

    public var description: String {
        let (y, m, d) = components
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.day < b.day }

    package static func pad(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    package static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's `days_from_civil`.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Howard Hinnant's `civil_from_days`.
    package static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

extension TimeZone {
    /// The instant the wall clock here shows `minute` minutes after midnight of `date`.
    ///
    /// A time that happens twice (clocks going back) is its first occurrence; a time that never
    /// happens (clocks going forward) is the first moment after the gap, so an opening time in
    /// the gap opens when the clocks have jumped. Assumes at most one transition within a day
    /// of the time, as every real zone has.
    public func instant(of date: LocalDate, minute: Int) -> Date {
        let wall = Double(date.day * 86_400 + minute * 60)
        let before = Double(secondsFromGMT(for: Date(timeIntervalSince1970: wall - 43_200)))
        let after = Double(secondsFromGMT(for: Date(timeIntervalSince1970: wall + 43_200)))
        let candidates = [wall - before, wall - after].filter { candidate in
            candidate + Double(secondsFromGMT(for: Date(timeIntervalSince1970: candidate))) == wall
        }
        if let first = candidates.min() { return Date(timeIntervalSince1970: first) }
        // In a gap: the clocks jumped over `wall`; the jump itself is the first moment after it.
        let probe = Date(timeIntervalSince1970: wall - max(before, after) - 1)
        return nextDaylightSavingTimeTransition(after: probe) ?? Date(timeIntervalSince1970: wall - before)
    }

    /// `instant` as ISO-8601 with this zone's offset at that instant: `2026-03-29T02:00:00+01:00`.
    public func localISO8601(_ instant: Date) -> String {
        let offset = secondsFromGMT(for: instant)
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let day = Int((Double(local) / 86_400).rounded(.down))
        let seconds = local - day * 86_400
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(LocalDate(day: day))T\(LocalDate.pad(seconds / 3600, 2)):\(LocalDate.pad(seconds % 3600 / 60, 2)):"
            + "\(LocalDate.pad(seconds % 60, 2))\(sign)\(LocalDate.pad(magnitude / 3600, 2)):\(LocalDate.pad(magnitude % 3600 / 60, 2))"
    }

    /// Minutes after local midnight of `instant` here.
    public func minuteOfDay(_ instant: Date) -> Int {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + secondsFromGMT(for: instant)
        return ((local % 86_400) + 86_400) % 86_400 / 60
    }
}

import Foundation

/// Money as people read it at the desk: `JMD 1,500.00`.
package enum MoneyText {
    package static func format(_ amount: Int64, _ currency: String) -> String {
        let negative = amount < 0
        let value = amount.magnitude
        let whole = String(value / 100)
        var grouped = ""
        for (index, character) in whole.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let cents = String(format: "%02d", Int(value % 100))
        return "\(negative ? "-" : "")\(currency) \(String(grouped.reversed())).\(cents)"
    }

    package static func format(_ money: Money) -> String { format(money.amount, money.currency) }

    /// The amount alone with a decimal point and no grouping, as machines read it: `1500.00`
    /// (schema.org's `price`).
    package static func plain(_ amount: Int64, _ currency: String) -> String {
        "\(amount < 0 ? "-" : "")\(amount.magnitude / 100).\(String(format: "%02d", Int(amount.magnitude % 100)))"
    }
}

/// Times as people read them.
package enum TimeText {
    /// The clock of the store a console page is about (its calendar's zone), set for the page's
    /// request by the pages' front door: everything a person reads on it is in that zone, named
    /// (issue 46: times were UTC at a Jamaican store). Nil: UTC.
    @TaskLocal package static var zone: TimeZone?

    /// A moment on the store's clock with its offset (``local(_:in:)``) when a page set
    /// ``zone``; else UTC to the second (`2026-11-23 14:05:09 UTC`).
    package static func format(_ date: Date) -> String {
        if let zone { return local(date, in: zone) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// A moment as the store's clock shows it, with the zone's offset then, so a customer need
    /// not convert from UTC: `Wed 1 Dec 2026 18:30 (UTC-05:00)`; UTC when the store has no zone.
    package static func local(_ date: Date, in zone: TimeZone?) -> String {
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let day = LocalDate(date, in: zone)
        let (year, month, dayOfMonth) = day.components
        let offset = zone.secondsFromGMT(for: date)
        let utc =
            offset == 0
            ? "UTC"
            : "UTC\(offset < 0 ? "-" : "+")\(LocalDate.pad(abs(offset) / 3600, 2)):\(LocalDate.pad(abs(offset) % 3600 / 60, 2))"
        return "\(SlotText.weekdays[day.weekday - 1]) \(dayOfMonth) \(SlotText.months[month - 1]) \(year) \(SlotText.time(date, zone)) (\(utc))"
    }

    /// How long ago, in whole minutes or hours (`12 min`, `3 h 5 min`).
    /// How a form names the clock its times are typed in: `store time, UTC-05:00` (the offset
    /// now), or `UTC`.
    package static func zoneLabel(now: Date = Date()) -> String {
        guard let zone else { return "UTC" }
        let offset = zone.secondsFromGMT(for: now)
        guard offset != 0 else { return "store time, UTC" }
        return "store time, UTC\(offset < 0 ? "-" : "+")\(LocalDate.pad(abs(offset) / 3600, 2)):\(LocalDate.pad(abs(offset) % 3600 / 60, 2))"
    }

    package static func age(since date: Date, now: Date = Date()) -> String {
        let minutes = max(0, Int(now.timeIntervalSince(date) / 60))
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

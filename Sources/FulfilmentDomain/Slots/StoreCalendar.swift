import Foundation

/// When a store hands orders over: its zone, opening hours, closures and how it slices them
/// into pickup slots. A plain value; `StoreCalendar+Slots` turns it into slots, and
/// `CalendarQueries` stores it. Build one with ``validated(_:)`` from what a manager sent.
public struct StoreCalendar: Sendable, Equatable {
    /// One opening range on a weekday, in minutes after local midnight. `closes` not after
    /// `opens` runs past midnight into the next day (22:00–02:00); equal means 24 hours.
    public struct Range: Sendable, Hashable {
        /// ISO weekday, 1 Monday ... 7 Sunday.
        public var weekday: Int
        public var opens: Int
        public var closes: Int

        package init(weekday: Int, opens: Int, closes: Int) {
            self.weekday = weekday
            self.opens = opens
            self.closes = closes
        }

        /// How long the range is open, in wall-clock minutes (1 ... 1440).
        public var minutes: Int { closes > opens ? closes - opens : closes + 1440 - opens }
    }

    public struct Closure: Sendable, Hashable {
        public var date: LocalDate
        public var reason: String

        package init(date: LocalDate, reason: String) {
            self.date = date
            self.reason = reason
        }
    }

    public var timeZone: TimeZone
    public var hours: [Range]
    public var closures: [Closure]
    public var slotMinutes: Int = 30
    /// Orders per slot.
    public var capacity: Int
    /// The earliest bookable slot starts at least this long after now.
    public var leadMinutes: Int = 120
    /// A slot may start at most this many days (× 24 hours) after now.
    public var horizonDays: Int = 7
    /// How long after its slot ends an order can still be collected (the token's expiry).
    public var graceMinutes: Int = 1440
    /// How long before its slot's start an order must be packed (issue 47): its ready-by time.
    public var readyLeadMinutes: Int = 15

    /// The bounds the contract and the database also state.
    public enum Bounds {
        public static let slotMinutes = 5...240
        public static let capacity = 1...1000
        public static let leadMinutes = 0...20_160
        public static let horizonDays = 1...60
        public static let graceMinutes = 0...20_160
        public static let readyLeadMinutes = 0...240
        public static let ranges = 0...70
        public static let closures = 0...400
        public static let closureReason = 0...200
    }

    package var grace: TimeInterval { TimeInterval(graceMinutes * 60) }
    package var slotLength: TimeInterval { TimeInterval(slotMinutes * 60) }

    /// Whether `date`'s opening hours are cancelled.
    package func isClosed(_ date: LocalDate) -> Bool { closures.contains { $0.date == date } }
}

/// What a manager sends for a calendar, before any check: `StoreCalendar.validated` turns it
/// into a calendar or names the first field that is wrong.
public struct CalendarDraft: Sendable {
    public struct Range: Sendable {
        public var weekday: String
        public var opens: String
        public var closes: String

        package init(weekday: String, opens: String, closes: String) {
            self.weekday = weekday
            self.opens = opens
            self.closes = closes
        }
    }

    public struct Closure: Sendable {
        public var date: String
        public var reason: String?

        package init(date: String, reason: String? = nil) {
            self.date = date
            self.reason = reason
        }
    }

    public var timeZone: String
    public var openingHours: [Range]
    public var closures: [Closure]
    public var slotMinutes: Int?
    public var capacity: Int
    public var leadMinutes: Int?
    public var horizonDays: Int?
    public var graceMinutes: Int?
    public var readyLeadMinutes: Int?

    package init(
        timeZone: String, openingHours: [Range], closures: [Closure], slotMinutes: Int? = nil, capacity: Int, leadMinutes: Int? = nil,
        horizonDays: Int? = nil, graceMinutes: Int? = nil, readyLeadMinutes: Int? = nil
    ) {
        self.timeZone = timeZone
        self.openingHours = openingHours
        self.closures = closures
        self.slotMinutes = slotMinutes
        self.capacity = capacity
        self.leadMinutes = leadMinutes
        self.horizonDays = horizonDays
        self.graceMinutes = graceMinutes
        self.readyLeadMinutes = readyLeadMinutes
    }
}

extension StoreCalendar {
    package static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The calendar `draft` describes, or `SlotError.invalidCalendar` naming the field: every
    /// number in bounds, a zone the system knows, `HH:MM` times, ranges that neither overlap
    /// (across midnight too) nor are shorter than one slot, real closure dates listed once.
    public static func validated(_ draft: CalendarDraft) throws(SlotError) -> StoreCalendar {
        func invalid(_ field: String, _ message: String) -> SlotError { .invalidCalendar(field: field, message: message) }
        guard (1...64).contains(draft.timeZone.utf8.count),
            TimeZone.knownTimeZoneIdentifiers.contains(draft.timeZone) || draft.timeZone == "UTC",
            let zone = TimeZone(identifier: draft.timeZone)
        else { throw invalid("timeZone", "The time zone must be an IANA zone name, such as Europe/London.") }
        let slotMinutes = draft.slotMinutes ?? 30
        guard Bounds.slotMinutes.contains(slotMinutes) else { throw invalid("slotMinutes", "A slot is 5 to 240 minutes long.") }
        guard Bounds.capacity.contains(draft.capacity) else { throw invalid("capacity", "The capacity is 1 to 1000 orders a slot.") }
        let lead = draft.leadMinutes ?? 120
        guard Bounds.leadMinutes.contains(lead) else { throw invalid("leadMinutes", "The lead time is 0 to 20160 minutes (14 days).") }
        let horizon = draft.horizonDays ?? 7
        guard Bounds.horizonDays.contains(horizon) else { throw invalid("horizonDays", "Customers may book 1 to 60 days ahead.") }
        let grace = draft.graceMinutes ?? 1440
        guard Bounds.graceMinutes.contains(grace) else {
            throw invalid("graceMinutes", "The grace period is 0 to 20160 minutes (14 days).")
        }
        let readyLead = draft.readyLeadMinutes ?? 15
        guard Bounds.readyLeadMinutes.contains(readyLead) else {
            throw invalid("readyLeadMinutes", "An order is ready 0 to 240 minutes before its slot starts.")
        }
        guard Bounds.ranges.contains(draft.openingHours.count) else { throw invalid("openingHours", "At most 70 opening ranges.") }
        var ranges: [Range] = []
        for (index, range) in draft.openingHours.enumerated() {
            let field = "openingHours[\(index)]"
            guard let day = weekdays.firstIndex(of: range.weekday) else {
                throw invalid("\(field).weekday", "The weekday is monday ... sunday.")
            }
            guard let opens = minutes(range.opens) else { throw invalid("\(field).opens", "A time is HH:MM, 00:00 to 23:59.") }
            guard let closes = minutes(range.closes) else { throw invalid("\(field).closes", "A time is HH:MM, 00:00 to 23:59.") }
            let candidate = Range(weekday: day + 1, opens: opens, closes: closes)
            guard candidate.minutes >= slotMinutes else {
                throw invalid(field, "An opening range must hold at least one \(slotMinutes)-minute slot.")
            }
            if let other = ranges.firstIndex(where: { overlap($0, candidate) }) {
                throw invalid(field, "This range overlaps openingHours[\(other)] (a range past midnight runs into the next day).")
            }
            ranges.append(candidate)
        }
        guard Bounds.closures.contains(draft.closures.count) else { throw invalid("closures", "At most 400 closures.") }
        var closures: [Closure] = []
        for (index, closure) in draft.closures.enumerated() {
            guard let date = LocalDate(closure.date) else { throw invalid("closures[\(index)].date", "A date is YYYY-MM-DD.") }
            guard !closures.contains(where: { $0.date == date }) else {
                throw invalid("closures[\(index)].date", "\(date) is listed twice.")
            }
            let reason = closure.reason ?? ""
            guard Bounds.closureReason.contains(reason.count) else {
                throw invalid("closures[\(index)].reason", "A closure's reason is at most 200 characters.")
            }
            closures.append(Closure(date: date, reason: reason))
        }
        return StoreCalendar(
            timeZone: zone, hours: ranges.sorted { ($0.weekday, $0.opens) < ($1.weekday, $1.opens) },
            closures: closures.sorted { $0.date < $1.date }, slotMinutes: slotMinutes, capacity: draft.capacity, leadMinutes: lead,
            horizonDays: horizon, graceMinutes: grace, readyLeadMinutes: readyLead)
    }

    /// `HH:MM` as minutes after midnight.
    package static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m)
        else { return nil }
        return h * 60 + m
    }

    package static func clock(_ minutes: Int) -> String { "\(LocalDate.pad(minutes / 60, 2)):\(LocalDate.pad(minutes % 60, 2))" }

    /// Whether two ranges share a wall-clock minute of the week (Sunday night runs into Monday).
    package static func overlap(_ a: Range, _ b: Range) -> Bool {
        let week = 7 * 1440
        func pieces(_ r: Range) -> [(Int, Int)] {
            let start = (r.weekday - 1) * 1440 + r.opens
            let end = start + r.minutes
            return end <= week ? [(start, end)] : [(start, week), (0, end - week)]
        }
        return pieces(a).contains { x in pieces(b).contains { y in x.0 < y.1 && y.0 < x.1 } }
    }
}

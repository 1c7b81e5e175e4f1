import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The slot rules as pure functions: a calendar, a date and a `now` in, slots out. No database,
/// no clock.
@Suite("Pickup slot generation")
struct SlotGenerationTests {
    static let london = TimeZone(identifier: "Europe/London")!

    /// A London store open `ranges` on every weekday, 30-minute slots, no lead time, 60 days' horizon.
    static func calendar(
        _ ranges: [(String, String)], weekdays: ClosedRange<Int> = 1...7, zone: TimeZone = london, lead: Int = 0, horizon: Int = 60,
        closures: [String] = []
    ) -> StoreCalendar {
        StoreCalendar(
            timeZone: zone,
            hours: weekdays.flatMap { day in
                ranges.map { StoreCalendar.Range(weekday: day, opens: StoreCalendar.minutes($0.0)!, closes: StoreCalendar.minutes($0.1)!) }
            },
            closures: closures.map { .init(date: LocalDate($0)!, reason: "") }, slotMinutes: 30, capacity: 4, leadMinutes: lead,
            horizonDays: horizon, graceMinutes: 60)
    }

    static func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
    static func local(_ slots: [PickupSlot], _ zone: TimeZone = london) -> [String] { slots.map { zone.localISO8601($0.start) } }

    @Test("an ordinary summer day: 09:00–12:00 London is six half-hour slots, an hour ahead of UTC")
    func ordinaryDay() {
        let slots = Self.calendar([("09:00", "12:00")]).slots(openingOn: LocalDate("2026-06-15")!)
        #expect(slots.count == 6)
        #expect(slots.first?.start == Self.instant("2026-06-15T08:00:00Z"))
        #expect(slots.last?.end == Self.instant("2026-06-15T11:00:00Z"))
        #expect(Self.local(slots).first == "2026-06-15T09:00:00+01:00")
    }

    @Test("the clocks go forward (last Sunday of March): 00:00–04:00 is three real hours, and no slot starts at 01:xx")
    func springForward() {
        let slots = Self.calendar([("00:00", "04:00")]).slots(openingOn: LocalDate("2026-03-29")!)
        #expect(
            Self.local(slots) == [
                "2026-03-29T00:00:00+00:00", "2026-03-29T00:30:00+00:00", "2026-03-29T02:00:00+01:00",
                "2026-03-29T02:30:00+01:00", "2026-03-29T03:00:00+01:00", "2026-03-29T03:30:00+01:00",
            ])
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(slots.allSatisfy { $0.end.timeIntervalSince($0.start) == 1800 })
        // The day's daytime hours are in summer time already.
        let day = Self.calendar([("09:00", "10:00")]).slots(openingOn: LocalDate("2026-03-29")!)
        #expect(day.map(\.start) == [Self.instant("2026-03-29T08:00:00Z"), Self.instant("2026-03-29T08:30:00Z")])
        // The Saturday before is still winter time.
        #expect(
            Self.calendar([("09:00", "10:00")]).slots(openingOn: LocalDate("2026-03-28")!).first?.start
                == Self.instant("2026-03-28T09:00:00Z"))
    }

    @Test("an opening time inside the spring-forward gap opens when the clocks have jumped")
    func openingInTheGap() {
        let slots = Self.calendar([("01:30", "03:00")]).slots(openingOn: LocalDate("2026-03-29")!)
        #expect(Self.local(slots) == ["2026-03-29T02:00:00+01:00", "2026-03-29T02:30:00+01:00"])
    }

    @Test("the clocks go back (last Sunday of October): 00:00–04:00 is five real hours, 01:00 and 01:30 twice with two offsets")
    func fallBack() {
        let slots = Self.calendar([("00:00", "04:00")]).slots(openingOn: LocalDate("2026-10-25")!)
        #expect(
            Self.local(slots) == [
                "2026-10-25T00:00:00+01:00", "2026-10-25T00:30:00+01:00", "2026-10-25T01:00:00+01:00", "2026-10-25T01:30:00+01:00",
                "2026-10-25T01:00:00+00:00", "2026-10-25T01:30:00+00:00", "2026-10-25T02:00:00+00:00", "2026-10-25T02:30:00+00:00",
                "2026-10-25T03:00:00+00:00", "2026-10-25T03:30:00+00:00",
            ])
        #expect(slots.first?.start == Self.instant("2026-10-24T23:00:00Z"))
        #expect(Set(slots.map(\.start)).count == 10)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $0.end == $1.start })
        // Daytime is back on GMT.
        #expect(
            Self.calendar([("09:00", "09:30")]).slots(openingOn: LocalDate("2026-10-25")!).first?.start
                == Self.instant("2026-10-25T09:00:00Z"))
    }

    @Test("a range past midnight belongs to the day it opens, and its hours after midnight are listed on the next date")
    func acrossMidnight() {
        // Fridays 22:00–02:00 only.
        let calendar = Self.calendar([("22:00", "02:00")], weekdays: 5...5)
        let friday = calendar.slots(openingOn: LocalDate("2026-06-19")!)
        #expect(friday.count == 8)
        #expect(Self.local(friday).last == "2026-06-20T01:30:00+01:00")
        #expect(calendar.slots(openingOn: LocalDate("2026-06-20")!).isEmpty)
        let now = Self.instant("2026-06-01T00:00:00Z")
        let saturday = calendar.bookableSlots(from: LocalDate("2026-06-20")!, days: 1, now: now)
        #expect(
            Self.local(saturday) == [
                "2026-06-20T00:00:00+01:00", "2026-06-20T00:30:00+01:00", "2026-06-20T01:00:00+01:00", "2026-06-20T01:30:00+01:00",
            ])
        #expect(calendar.bookableSlots(from: LocalDate("2026-06-19")!, days: 1, now: now).count == 4)
        // Closing the Friday closes its night, after midnight too.
        var closed = calendar
        closed.closures = [.init(date: LocalDate("2026-06-19")!, reason: "stocktake")]
        #expect(closed.bookableSlots(from: LocalDate("2026-06-19")!, days: 2, now: now).isEmpty)
    }

    @Test("slots touching midnight: 23:00–00:00 ends exactly at the next day's midnight; 00:00–00:00 is open all day")
    func touchingMidnight() {
        let late = Self.calendar([("23:00", "00:00")]).slots(openingOn: LocalDate("2026-06-15")!)
        #expect(Self.local(late) == ["2026-06-15T23:00:00+01:00", "2026-06-15T23:30:00+01:00"])
        #expect(late.last.map { Self.london.localISO8601($0.end) } == "2026-06-16T00:00:00+01:00")
        #expect(Self.calendar([("00:00", "00:00")]).slots(openingOn: LocalDate("2026-06-15")!).count == 48)
        // 24 hours of wall clock are 23 real hours on the day the clocks go forward.
        #expect(Self.calendar([("00:00", "00:00")]).slots(openingOn: LocalDate("2026-03-29")!).count == 46)
    }

    @Test("the lead time hides slots that start too soon; the horizon hides those too far ahead")
    func leadTimeAndHorizon() {
        let calendar = Self.calendar([("09:00", "17:00")], lead: 120, horizon: 2)
        let now = Self.instant("2026-06-15T08:10:00Z")  // 09:10 in London
        let today = calendar.bookableSlots(from: LocalDate("2026-06-15")!, days: 1, now: now)
        #expect(Self.local(today).first == "2026-06-15T11:30:00+01:00")
        #expect(today.allSatisfy { $0.start >= now.addingTimeInterval(7200) })
        let week = calendar.bookableSlots(from: LocalDate("2026-06-15")!, days: 7, now: now)
        #expect(week.allSatisfy { $0.start < now.addingTimeInterval(2 * 86_400) })
        #expect(Self.local(week).last == "2026-06-17T09:00:00+01:00")
    }

    @Test("checking a slot a customer sent: each refusal has its reason")
    func refusals() throws {
        let calendar = Self.calendar([("09:00", "17:00")], weekdays: 1...6, lead: 120, horizon: 7, closures: ["2026-06-17"])
        let now = Self.instant("2026-06-15T08:10:00Z")
        func reason(_ start: String) -> SlotRefusal? {
            do {
                _ = try calendar.slot(startingAt: Self.instant(start), now: now)
                return nil
            } catch {
                guard case .unavailable(let reason) = error else { return nil }
                return reason
            }
        }
        #expect(try calendar.slot(startingAt: Self.instant("2026-06-16T08:00:00Z"), now: now).end == Self.instant("2026-06-16T08:30:00Z"))
        #expect(reason("2026-06-15T07:00:00Z") == .past)
        #expect(reason("2026-06-15T09:00:00Z") == .insideLeadTime)
        #expect(reason("2026-06-17T09:00:00Z") == .closed)  // the closure
        #expect(reason("2026-06-21T09:00:00Z") == .closed)  // a Sunday: no hours
        #expect(reason("2026-06-16T20:00:00Z") == .closed)  // after hours
        #expect(reason("2026-06-16T08:10:00Z") == .notOnGrid)
        #expect(reason("2026-06-23T09:00:00Z") == .beyondHorizon)
    }

    @Test("validation names the wrong field: zone, times, overlaps (across midnight and Sunday into Monday), short ranges, closures, bounds")
    func validation() {
        func field(_ draft: CalendarDraft) -> String? {
            do {
                _ = try StoreCalendar.validated(draft)
                return nil
            } catch {
                guard case .invalidCalendar(let field, _) = error else { return "?" }
                return field
            }
        }
        func draft(
            _ hours: [(String, String, String)], zone: String = "Europe/London", closures: [String] = [], capacity: Int = 4,
            slot: Int? = nil
        ) -> CalendarDraft {
            CalendarDraft(
                timeZone: zone, openingHours: hours.map { .init(weekday: $0.0, opens: $0.1, closes: $0.2) },
                closures: closures.map { .init(date: $0, reason: nil) }, slotMinutes: slot, capacity: capacity, leadMinutes: nil,
                horizonDays: nil, graceMinutes: nil)
        }
        #expect(field(draft([("monday", "09:00", "17:00"), ("friday", "22:00", "02:00")], closures: ["2026-12-25"])) == nil)
        #expect(field(draft([], zone: "Mars/Olympus")) == "timeZone")
        #expect(field(draft([("monday", "9:00", "17:00")])) == "openingHours[0].opens")
        #expect(field(draft([("monday", "09:00", "24:00")])) == "openingHours[0].closes")
        #expect(field(draft([("someday", "09:00", "17:00")])) == "openingHours[0].weekday")
        #expect(field(draft([("monday", "09:00", "12:00"), ("monday", "11:00", "14:00")])) == "openingHours[1]")
        #expect(field(draft([("friday", "22:00", "02:00"), ("saturday", "01:00", "03:00")])) == "openingHours[1]")
        #expect(field(draft([("sunday", "23:00", "01:00"), ("monday", "00:30", "02:00")])) == "openingHours[1]")
        #expect(field(draft([("monday", "09:00", "09:20")])) == "openingHours[0]")
        #expect(field(draft([("monday", "09:00", "12:00"), ("monday", "12:00", "14:00")])) == nil)  // touching is fine
        #expect(field(draft([], closures: ["2026-02-29"])) == "closures[0].date")
        #expect(field(draft([], closures: ["2026-12-25", "2026-12-25"])) == "closures[1].date")
        #expect(field(draft([], capacity: 0)) == "capacity")
        #expect(field(draft([], capacity: 1001)) == "capacity")
        #expect(field(draft([], slot: 4)) == "slotMinutes")
        #expect(field(draft([], slot: Int.max)) == "slotMinutes")
    }

    @Test("local dates: parsing, weekdays, and ISO-8601 with the zone's offset")
    func localDates() {
        #expect(LocalDate("2026-03-29")?.weekday == 7)
        #expect(LocalDate("2026-06-15")?.weekday == 1)
        #expect(LocalDate("2026-02-29") == nil)
        #expect(LocalDate("2028-02-29")?.description == "2028-02-29")
        #expect(LocalDate("26-03-29") == nil)
        #expect(LocalDate("２０２６-03-29") == nil)
        #expect(LocalDate(Self.instant("2026-10-24T23:30:00Z"), in: Self.london).description == "2026-10-25")
        let kingston = TimeZone(identifier: "America/Jamaica")!
        #expect(kingston.localISO8601(Self.instant("2026-06-15T13:00:00Z")) == "2026-06-15T08:00:00-05:00")
    }
}

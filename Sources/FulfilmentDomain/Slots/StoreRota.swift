import Foundation

/// A store's rota (issue 47): how many pickers work each hour of the week, the plan a slot's
/// capacity in pick work is counted from (`slot_work_capacity`: over the slot's time, the pickers
/// of each hour × the seconds of the slot in it × the utilisation). Hours the rota does not name
/// have ``defaultPickers``. Hours are local, in the store's calendar zone.
package struct StoreRota: Sendable, Equatable {
    /// An hour of the week (ISO weekday 1 Monday ... 7 Sunday, hour 0...23) with its own pickers.
    package struct Hour: Sendable, Equatable, Hashable {
        package var weekday: Int
        package var hour: Int
        package var pickers: Int

        package init(weekday: Int, hour: Int, pickers: Int) {
            self.weekday = weekday
            self.hour = hour
            self.pickers = pickers
        }
    }

    /// Pickers a single hour can have: a number a store's floor can hold, and small enough that
    /// no slot's capacity (× 14,400 s) comes near overflowing.
    package static let pickers = 0...50
    package static let defaultPickerCount = 1

    package var defaultPickers: Int
    /// In week order, each hour at most once.
    package var hours: [Hour]

    package init(defaultPickers: Int, hours: [Hour]) {
        self.defaultPickers = defaultPickers
        self.hours = hours
    }

    /// The pickers the rota plans for `weekday` (1...7) at `hour` (0...23).
    package func pickers(weekday: Int, hour: Int) -> Int {
        hours.first { $0.weekday == weekday && $0.hour == hour }?.pickers ?? defaultPickers
    }

    /// A rota as a client sent it: weekdays by name (`monday`...), numbers still unbounded.
    package struct Draft: Sendable {
        package var defaultPickers: Int?
        package var hours: [(weekday: String, hour: Int, pickers: Int)]

        package init(defaultPickers: Int?, hours: [(weekday: String, hour: Int, pickers: Int)]) {
            self.defaultPickers = defaultPickers
            self.hours = hours
        }
    }

    /// The rota `draft` describes, every number bounded by what it means: 422 `invalid_rota`
    /// naming the field (`hours[3].pickers`) otherwise, or an hour named twice.
    package static func validated(_ draft: Draft) throws(SlotError) -> StoreRota {
        let defaultPickers = draft.defaultPickers ?? defaultPickerCount
        guard pickers.contains(defaultPickers) else {
            throw .invalidRota(field: "defaultPickers", message: "Pickers are a whole number from 0 to 50.")
        }
        guard draft.hours.count <= 168 else { throw .invalidRota(field: "hours", message: "A week has 168 hours.") }
        var seen = Set<Int>()
        var hours: [Hour] = []
        for (index, hour) in draft.hours.enumerated() {
            guard let weekday = StoreCalendar.weekdays.firstIndex(of: hour.weekday) else {
                throw .invalidRota(field: "hours[\(index)].weekday", message: "A weekday is monday to sunday.")
            }
            guard (0...23).contains(hour.hour) else {
                throw .invalidRota(field: "hours[\(index)].hour", message: "An hour is 0 to 23.")
            }
            guard pickers.contains(hour.pickers) else {
                throw .invalidRota(field: "hours[\(index)].pickers", message: "Pickers are a whole number from 0 to 50.")
            }
            guard seen.insert(weekday * 24 + hour.hour).inserted else {
                throw .invalidRota(
                    field: "hours[\(index)]", message: "\(hour.weekday.capitalized) \(StoreCalendar.clock(hour.hour * 60)) is named twice.")
            }
            hours.append(Hour(weekday: weekday + 1, hour: hour.hour, pickers: hour.pickers))
        }
        return StoreRota(defaultPickers: defaultPickers, hours: hours.sorted { ($0.weekday, $0.hour) < ($1.weekday, $1.hour) })
    }
}

/// What picking one order takes at a store, in seconds (`store_pick_estimate`): learned from its
/// own completed pick batches (`learn_pick_estimate`), else the defaults (`pick_estimate_defaults`).
package struct PickEstimate: Sendable, Equatable {
    package var perOrderSeconds: Int
    package var perLineSeconds: Int
    /// Each unit beyond a line's first.
    package var perUnitSeconds: Int
    /// The batches it was learned from; 0 for the defaults.
    package var batches: Int
    package var learnedAt: Date?
}

/// A store's rota as the manager reads it: the stored one (or the default, every hour one
/// picker, when none is: then `isSet` is false and its slots count places only), with the
/// utilisation the database counts by and the store's pick estimate.
package struct RotaView: Sendable, Equatable {
    package var rota: StoreRota
    package var isSet: Bool
    package var utilisationPercent: Int
    package var estimate: PickEstimate
}

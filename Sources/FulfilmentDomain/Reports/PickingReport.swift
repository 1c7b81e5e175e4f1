import Foundation

/// How picking went (issue 46), over the pick lists completed in the range (the store's days):
/// lines picked per hour of a list's life (from its making to its completion), per day and over
/// the range, with the median of the lists' own rates; of those lines, how many were closed short
/// (`picks.short`, the same close that sets `order_lines.picked_short`); and of the substitutes
/// given on the lists' orders, how many the customers accepted, refused or have not answered,
/// with the products most often substituted.
package struct PickingReport: Sendable {
    package struct Bucket: Sendable, Equatable {
        /// Pick lists completed (this day).
        package var pickLists: Int
        /// Lines (an order's product) scanned on them, each once however many scans it took.
        package var lines: Int
        /// Of those, closed short.
        package var short: Int
        /// From the lists' making to their completion, in minutes (summed).
        package var minutes: Double

        package init(pickLists: Int = 0, lines: Int = 0, short: Int = 0, minutes: Double = 0) {
            self.pickLists = pickLists
            self.lines = lines
            self.short = short
            self.minutes = minutes
        }

        /// Lines per hour of the lists' time, to a tenth; nil without time.
        package var linesPerHour: Double? {
            minutes > 0 ? (Double(lines) * 60 / minutes * 10).rounded() / 10 : nil
        }

        /// Lines closed short out of lines picked, 0 to 1; nil without lines.
        package var shortShare: Double? { lines == 0 ? nil : Double(short) / Double(lines) }
    }

    /// Substitutes given, and what the customers made of them.
    package struct Substitutions: Sendable, Equatable {
        package var proposed: Int
        package var accepted: Int
        package var refused: Int

        package init(proposed: Int = 0, accepted: Int = 0, refused: Int = 0) {
            self.proposed = proposed
            self.accepted = accepted
            self.refused = refused
        }

        /// Proposed, not yet accepted or refused.
        package var awaiting: Int { proposed - accepted - refused }
        package var acceptedShare: Double? { proposed == 0 ? nil : Double(accepted) / Double(proposed) }
        package var refusedShare: Double? { proposed == 0 ? nil : Double(refused) / Double(proposed) }
    }

    /// A product picked short and given something else instead, and how often.
    package struct SubstitutedProduct: Sendable, Equatable {
        package var product: ProductID
        package var name: String
        package var substitutions: Substitutions
    }

    /// The most-substituted products a report lists.
    package static let topProducts = 10

    package var store: StoreID
    package var range: ReportRange
    package var zone: TimeZone
    package var total: Bucket
    /// The median of the lists' own lines per hour, to a tenth; nil without a list with time.
    package var medianListLinesPerHour: Double?
    /// One per day of the range (the day a list was completed), in order, days without lists included.
    package var days: [(day: LocalDate, bucket: Bucket)]
    /// On the orders of the lists: proposed out of lines picked is the substitution rate.
    package var substitutions: Substitutions
    /// At most `topProducts`, the most substituted first (then by name).
    package var mostSubstituted: [SubstitutedProduct]

    /// Substitutes proposed per line picked, 0 to 1 (a line may be substituted only in part, so
    /// it is a rate, not a share); nil without lines.
    package var substitutionRate: Double? {
        total.lines == 0 ? nil : Double(substitutions.proposed) / Double(total.lines)
    }
}

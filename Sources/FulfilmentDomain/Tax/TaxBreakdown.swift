import Foundation

/// The tax in an order's tax-inclusive prices, per rate (issue 48): for each rate, the gross the
/// lines cost now (after their share of a coupon), the tax in it and the net. Computed from
/// what each line kept (`LineTax`), so the same order always gives the same figures.
///
/// The one rounding rule: per rate, not per line, tax = gross × rate ÷ (1 + rate), rounded half
/// up to the minor unit; net = gross − tax, so net and tax always add up to what was paid.
public struct TaxBreakdown: Sendable, Equatable {
    public struct Rate: Sendable, Equatable {
        public var rateBasisPoints: Int
        /// Charged nothing because exempt, not zero-rated.
        public var exempt: Bool
        public var gross: Int64
        public var tax: Int64
        public var net: Int64 { gross &- tax }
    }

    /// Highest rate first, exempt last.
    public var rates: [Rate]
    public var tax: Int64 { rates.reduce(0) { $0 &+ $1.tax } }
    public var gross: Int64 { rates.reduce(0) { $0 &+ $1.gross } }

    /// Nil when a line that costs something kept no tax (written before the store had a
    /// jurisdiction, or before tax was recorded): a receipt shows no tax rather than a guess.
    public init?(lines: [OrderLine]) {
        var grosses: [RateKey: Int64] = [:]
        for line in lines where line.amount > 0 {
            guard let tax = line.tax else { return nil }
            let key = RateKey(rateBasisPoints: tax.rateBasisPoints, exempt: tax.taxClass == .exempt)
            grosses[key, default: 0] &+= line.amount
        }
        guard !grosses.isEmpty else { return nil }
        rates = grosses.map { key, gross in
            Rate(rateBasisPoints: key.rateBasisPoints, exempt: key.exempt, gross: gross, tax: Self.tax(in: gross, rate: key.rateBasisPoints))
        }.sorted { ($0.exempt ? -1 : $0.rateBasisPoints, $0.gross) > ($1.exempt ? -1 : $1.rateBasisPoints, $1.gross) }
    }

    private struct RateKey: Hashable {
        var rateBasisPoints: Int
        var exempt: Bool
    }

    /// The tax in `gross` minor units at `rate` basis points, rounded half up, without
    /// overflow for any gross: gross = q·d + r with d = 10000 + rate, so the tax is q·rate plus
    /// r·rate ÷ d rounded (r·rate < 10⁸).
    public static func tax(in gross: Int64, rate: Int) -> Int64 {
        guard gross > 0, rate > 0 else { return 0 }
        let rate = Int64(min(rate, 10_000))
        let divisor = 10_000 + rate
        let (whole, rest) = gross.quotientAndRemainder(dividingBy: divisor)
        return whole * rate + (rest * rate + divisor / 2) / divisor
    }

    /// "20%", "12.5%", "0%".
    public static func percent(_ rateBasisPoints: Int) -> String {
        let whole = rateBasisPoints / 100
        let hundredths = rateBasisPoints % 100
        if hundredths == 0 { return "\(whole)%" }
        return hundredths % 10 == 0 ? "\(whole).\(hundredths / 10)%" : "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)%"
    }
}

extension Money {
    /// The basis points in a whole: 10,000 basis points is 100 %.
    public static let basisPointsInWhole = 10_000

    /// `basisPoints` of `amount` (1,250 basis points is 12.5 %), in whole minor units: the one
    /// rounding rule every percentage in the product uses (a sale's percentage off, a coupon's).
    ///
    /// The rule is round half to even ("banker's rounding"): an exact half goes to the even
    /// minor unit (12.5 → 12, 13.5 → 14), anything else to the nearer one. Halves are then not
    /// always rounded the same way, so across many lines they do not drift up. A negative
    /// amount rounds as its magnitude does, with its sign kept.
    ///
    /// `basisPoints` is held to 0...10,000 (never more than the whole), so the answer is never
    /// larger than `amount` and never traps, whatever a client sent.
    public static func percentage(of amount: Int64, basisPoints: Int) -> Int64 {
        let points = UInt64(min(max(basisPoints, 0), basisPointsInWhole))
        let whole = UInt64(basisPointsInWhole)
        // magnitude × points fits in 128 bits, and the quotient in 64: points <= whole.
        var (quotient, remainder) = whole.dividingFullWidth(amount.magnitude.multipliedFullWidth(by: points))
        if remainder * 2 > whole || (remainder * 2 == whole && quotient % 2 == 1) { quotient += 1 }
        // quotient <= magnitude <= 2^63: negating in 64 bits is exact even for Int64.min.
        return amount < 0 ? Int64(truncatingIfNeeded: 0 &- quotient) : Int64(quotient)
    }
}

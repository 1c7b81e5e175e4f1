/// Orders codes the way people read them: digit runs compare as numbers, so "9" < "10" and
/// order "999" comes before "1042"; everything else compares by UTF-8 bytes (locale-free, so the
/// same on every machine).
///
/// It is a total order: strings that tie numerically ("01" and "1") fall back to a plain
/// comparison, so sorting by it is deterministic.
enum NaturalOrder {
    static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        switch compare(lhs, rhs) {
        case .less: true
        case .greater: false
        case .equal: lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }
    }

    enum Ordering { case less, equal, greater }

    static func compare(_ lhs: String, _ rhs: String) -> Ordering {
        let a = lhs.utf8
        let b = rhs.utf8
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex, j < b.endIndex {
            if isDigit(a[i]), isDigit(b[j]) {
                let (runA, nextI) = digitRun(a, from: i)
                let (runB, nextJ) = digitRun(b, from: j)
                let ordering = compareNumbers(runA, runB)
                if ordering != .equal { return ordering }
                i = nextI
                j = nextJ
            } else {
                if a[i] != b[j] { return a[i] < b[j] ? .less : .greater }
                i = a.index(after: i)
                j = b.index(after: j)
            }
        }
        if i == a.endIndex, j == b.endIndex { return .equal }
        return i == a.endIndex ? .less : .greater
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The digit run starting at `start` without its leading zeros, and the index after the run.
    private static func digitRun(
        _ s: String.UTF8View, from start: String.UTF8View.Index
    ) -> (Substring.UTF8View, String.UTF8View.Index) {
        var end = start
        var firstSignificant: String.UTF8View.Index?
        while end < s.endIndex, isDigit(s[end]) {
            if firstSignificant == nil, s[end] != UInt8(ascii: "0") { firstSignificant = end }
            end = s.index(after: end)
        }
        return (Substring(s[(firstSignificant ?? end)..<end]).utf8, end)
    }

    /// Compares digit strings of any length without converting them (no overflow).
    private static func compareNumbers(_ a: Substring.UTF8View, _ b: Substring.UTF8View) -> Ordering {
        let lengthA = a.count
        let lengthB = b.count
        if lengthA != lengthB { return lengthA < lengthB ? .less : .greater }
        for (x, y) in zip(a, b) where x != y { return x < y ? .less : .greater }
        return .equal
    }
}

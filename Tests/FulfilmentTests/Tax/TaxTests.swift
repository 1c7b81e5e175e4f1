import Foundation
import Testing

@testable import FulfilmentDomain

/// Tax on the receipt (issue 48): prices stay tax-inclusive; the receipt says how much of each
/// is tax, per rate, from the rate each line kept when it was written.
@Suite("Tax: per rate, from the rates the lines kept")
struct TaxTests {
    @Test("worked examples: the tax in a tax-inclusive price, rounded half up once per rate")
    func workedExamples() {
        // UK VAT 20 %: £12.00 holds £2.00 of VAT; £0.99 holds 16.5p, rounded up to 17p.
        #expect(TaxBreakdown.tax(in: 1200, rate: 2000) == 200)
        #expect(TaxBreakdown.tax(in: 99, rate: 2000) == 17)
        // Reduced 5 %: £2.10 holds 10p.
        #expect(TaxBreakdown.tax(in: 210, rate: 500) == 10)
        // Jamaica GCT 15 %: J$1,150.00 holds J$150.00; J$801.00 holds J$104.478…, so J$104.48.
        #expect(TaxBreakdown.tax(in: 115_000, rate: 1500) == 15_000)
        #expect(TaxBreakdown.tax(in: 80_100, rate: 1500) == 10_448)
        #expect(TaxBreakdown.tax(in: 5_000, rate: 0) == 0)
        // No gross overflows: the largest amount there is.
        #expect(TaxBreakdown.tax(in: .max, rate: 2000) == 1_537_228_672_809_129_301)
        #expect(TaxBreakdown.percent(2000) == "20%")
        #expect(TaxBreakdown.percent(1250) == "12.5%")
        #expect(TaxBreakdown.percent(1625) == "16.25%")
        #expect(TaxBreakdown.percent(5) == "0.05%")
    }

    @Test("an order's lines grouped per rate: gross after coupon shares, tax once per rate, net the rest; exempt apart from zero")
    func perRate() throws {
        func line(_ amount: Int64, _ taxClass: TaxClass, _ rate: Int) -> OrderLine {
            var line = OrderLine(productID: ProductID(UUID()), name: "x", unitPrice: amount, quantity: 1)
            line.chargedAmount = amount
            line.tax = LineTax(taxClass: taxClass, rateBasisPoints: rate)
            return line
        }
        // Two standard lines of 99p: per line each would round 16.5p up (34p); per rate it is 33p.
        let breakdown = try #require(
            TaxBreakdown(lines: [
                line(99, .standard, 2000), line(99, .standard, 2000), line(210, .reduced, 500), line(150, .zero, 0),
                line(300, .exempt, 0), line(0, .standard, 2000),
            ]))
        #expect(breakdown.rates.map(\.rateBasisPoints) == [2000, 500, 0, 0])
        #expect(breakdown.rates.map(\.exempt) == [false, false, false, true])
        #expect(breakdown.rates.map(\.gross) == [198, 210, 150, 300])
        #expect(breakdown.rates.map(\.tax) == [33, 10, 0, 0])
        #expect(breakdown.rates.map(\.net) == [165, 200, 150, 300])
        #expect(breakdown.tax == 43 && breakdown.gross == 858)
        // A line that costs something but kept no rate: no figures rather than a guess.
        var unknown = line(500, .standard, 2000)
        unknown.tax = nil
        #expect(TaxBreakdown(lines: [line(99, .standard, 2000), unknown]) == nil)
    }
}

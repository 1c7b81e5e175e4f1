import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Money: one rounding rule for every percentage, half to even on whole minor units")
struct MoneyPercentageTests {
    @Test(
        "exact halves go to the even minor unit, the rest to the nearer",
        arguments: [
            // (amount, basis points, expected)
            (Int64(125), 1_000, Int64(12)),  // 12.5 → 12
            (135, 1_000, 14),  // 13.5 → 14
            (126, 1_000, 13),  // 12.6 → 13
            (124, 1_000, 12),  // 12.4 → 12
            (1, 5_000, 0),  // 0.5 → 0
            (3, 5_000, 2),  // 1.5 → 2
            (80_100, 1_250, 10_012),  // 10,012.5 → 10,012
            (80_300, 1_250, 10_038),  // 10,037.5 → 10,038
            (99_999, 3_333, 33_330),  // 33,329.6667 → 33,330
            (-125, 1_000, -12),  // a negative amount as its magnitude, sign kept
            (-135, 1_000, -14),
        ])
    func halfToEven(amount: Int64, basisPoints: Int, expected: Int64) {
        #expect(Money.percentage(of: amount, basisPoints: basisPoints) == expected)
    }

    @Test("none is nothing and the whole is the amount, however large; points outside 0...10,000 are held to it, never trapping")
    func bounds() {
        for amount: Int64 in [0, 1, 80_100, Money.maximumPrice, .max, .min] {
            #expect(Money.percentage(of: amount, basisPoints: 0) == 0)
            #expect(Money.percentage(of: amount, basisPoints: 10_000) == amount)
            #expect(Money.percentage(of: amount, basisPoints: .max) == amount)
            #expect(Money.percentage(of: amount, basisPoints: -5) == 0)
            #expect(Money.percentage(of: amount, basisPoints: .min) == 0)
        }
        #expect(Money.percentage(of: .max, basisPoints: 5_000) == Int64.max / 2 + 1)  // 4611686018427387903.5 → …904 (even)
    }

    @Test("never more than the amount; a share and the rest add up to it within one minor unit")
    func sharesAddUp() {
        for amount: Int64 in [1, 7, 99, 80_100, 123_457] {
            for points in stride(from: 0, through: 10_000, by: 137) {
                let share = Money.percentage(of: amount, basisPoints: points)
                #expect((0...amount).contains(share))
                #expect(abs(share + Money.percentage(of: amount, basisPoints: 10_000 - points) - amount) <= 1)
            }
        }
    }
}

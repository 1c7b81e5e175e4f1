import Foundation
import QRReceipt
import Testing

/// The twelve letters under a receipt's QR (issue 46): the same token always gives the same
/// letters, another token others; the desk reads them in any case with spaces and dashes, and
/// never takes a token, an order number or a name for them.
@Suite("Pickup short codes")
struct PickupShortCodeTests {
    @Test("a token's code: twelve of the sixteen consonants, stable, different for another token")
    func code() {
        let a = PickupShortCode.of("FC1:ABC")
        #expect(a == PickupShortCode.of("FC1:ABC"))
        #expect(a != PickupShortCode.of("FC1:ABD"))
        #expect(a.count == 12 && a.allSatisfy(PickupShortCode.alphabet.contains))
        // MD5("") is d41d8cd98f00...: d→R, 4→G, 1→C, d→R, 8→L, c→Q, d→R, 9→M, 8→L, f→T, 0→B, 0→B.
        #expect(PickupShortCode.of("") == "RGCRLQRMLTBB")
        #expect(PickupShortCode.printed("RGCRLQRMLTBB") == "RGCR LQRM LTBB")
    }

    @Test("what a person types is read as a code, or not at all")
    func typed() {
        #expect(PickupShortCode.typed("rgcr lqrm ltbb") == "RGCRLQRMLTBB")
        #expect(PickupShortCode.typed(" RGCR-LQRM-LTBB\r\n") == "RGCRLQRMLTBB")
        #expect(PickupShortCode.typed("RGCRLQRMLTB") == nil, "eleven letters")
        #expect(PickupShortCode.typed("RGCRLQRMLTBBB") == nil, "thirteen")
        #expect(PickupShortCode.typed("RGCR LQRM LTBA") == nil, "a vowel is never in a code")
        #expect(PickupShortCode.typed("1005 Brown") == nil)
        #expect(PickupShortCode.typed("123456789012") == nil)
        #expect(PickupShortCode.typed("FC1:6BFOA3") == nil)
        #expect(PickupShortCode.typed(String(repeating: "B", count: 100_000)) == nil)
    }
}

import PickList
import Testing

@Suite("One HTML escaper, per Unicode scalar")
struct HTMLEscapingTests {
    /// Text as the scalars it is made of: String's == compares graphemes up to canonical
    /// equivalence, this says exactly which scalars come out.
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    @Test("a quote followed by a combining mark is one grapheme but still a quote: it is escaped")
    func quoteWithCombiningMark() {
        let quote = Self.scalars(HTMLEscaping.escape("\"\u{301}"))
        let expected = Self.scalars("&quot;\u{301}")
        #expect(quote == expected)
        let others = Self.scalars(HTMLEscaping.escape("'\u{301}<\u{338}&\u{20DD}"))
        let othersExpected = Self.scalars("&#39;\u{301}&lt;\u{338}&amp;\u{20DD}")
        #expect(others == othersExpected)
    }

    @Test("text without anything to escape comes back as it is")
    func plainText() {
        #expect(HTMLEscaping.escape("Ackee & saltfish") == "Ackee &amp; saltfish")
        #expect(HTMLEscaping.escape("Café crème") == "Café crème")
    }
}

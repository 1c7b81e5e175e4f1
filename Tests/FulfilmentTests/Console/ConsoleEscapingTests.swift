import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The console's HTML is escaped per Unicode scalar (`HTMLEscaping`, shared with the pick
/// sheet): a `"` followed by a combining mark is one `Character` to Swift, but an HTML parser
/// sees the quote and would end the attribute there.
@Suite("Console escaping")
struct ConsoleEscapingTests {
    @Test("an interpolated quote followed by U+0301 is escaped")
    func interpolation() {
        let value = "\"\u{301} autofocus onfocus=alert(1) x="
        let html: HTML = "<input value=\"\(value)\">"
        let expected = Array("<input value=\"&quot;\u{301} autofocus onfocus=alert(1) x=\">".unicodeScalars)
        #expect(Array(html.markup.unicodeScalars) == expected)
    }

    @Test("the stock page's ?q= value cannot leave its attribute, with a combining mark after the quote")
    func stockQuery() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let cookie = try await app.consoleCookie(manager)
            // `"` + U+0301, then an attribute injection.
            let reply = try await app.form(.get, "/console/stock?q=%22%CC%81%20autofocus%20onfocus%3Dalert(1)%20x%3D", cookie: cookie)
            #expect(reply.status == .ok)
            let tag = try #require(Self.tag(#"<input id="q""#, in: reply.body))
            #expect(tag.attributes.map(\.name) == ["id", "name", "value", "placeholder"])
            let value = tag.attributes.first { $0.name == "value" }.map { Array($0.value.unicodeScalars) }
            let expectedValue = Array("&quot;\u{301} autofocus onfocus=alert(1) x=".unicodeScalars)
            #expect(value == expectedValue)
            let expectedTag = Array(
                "<input id=\"q\" name=\"q\" value=\"&quot;\u{301} autofocus onfocus=alert(1) x=\" placeholder=\"name, SKU or barcode\">"
                    .unicodeScalars)
            #expect(Array(tag.text.unicodeScalars) == expectedTag)
        }
    }

    /// The start tag beginning with `prefix` in `body`, its attributes read as an HTML parser
    /// reads them (names end at space, `/`, `>` or `=`; values quoted or up to space or `>`),
    /// scalar by scalar.
    static func tag(_ prefix: String, in body: Data) -> (text: String, attributes: [(name: String, value: String)])? {
        let scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
        let start = Array(prefix.unicodeScalars)
        guard let first = scalars.indices.first(where: { scalars[$0...].starts(with: start) }) else { return nil }
        var i = first + 1
        while i < scalars.count, !" \t\n/>".unicodeScalars.contains(scalars[i]) { i += 1 }  // the tag name
        var attributes: [(name: String, value: String)] = []
        func read(while keep: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while i < scalars.count, keep(scalars[i]) {
                text.append(scalars[i])
                i += 1
            }
            return String(text)
        }
        while i < scalars.count {
            _ = read { " \t\n/".unicodeScalars.contains($0) }
            guard i < scalars.count, scalars[i] != ">" else { break }
            let name = read { !" \t\n/>=".unicodeScalars.contains($0) }
            var value = ""
            if i < scalars.count, scalars[i] == "=" {
                i += 1
                if i < scalars.count, scalars[i] == "\"" || scalars[i] == "'" {
                    let quote = scalars[i]
                    i += 1
                    value = read { $0 != quote }
                    i += 1
                } else {
                    value = read { !" \t\n>".unicodeScalars.contains($0) }
                }
            }
            attributes.append((name, value))
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[first...min(i, scalars.count - 1)])
        return (String(text), attributes)
    }
}

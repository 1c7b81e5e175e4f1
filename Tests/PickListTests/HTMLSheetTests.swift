import PickList
import Testing

@Suite("The HTML sheet is print-ready A4 and escapes everything it prints")
struct HTMLSheetTests {
    @Test("names, order numbers, store and pick list id are escaped, so a product can't inject markup")
    func escapesText() throws {
        let route = try PickRoute(
            lines: [line("<b>1042</b>", "evil", 1, name: #"<script>alert("x")</script> Fish & 'Chips'"#)],
            locations: [
                "evil": Store.at(Aisle(code: "<1>", name: "Tins & Jars", walkOrder: 1), bay: 1, shelf: "\"top\"")
            ])
        var header = Store.header
        header.storeName = "Bob's <Deli> & Co"
        header.pickListID = "\"><img src=x onerror=alert(1)>"
        let html = route.htmlSheet(header: header)

        #expect(!html.contains("<script>"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>1042"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Fish &amp; &#39;Chips&#39;"))
        #expect(html.contains("Bob&#39;s &lt;Deli&gt; &amp; Co"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("#&lt;b&gt;1042&lt;/b&gt;"))
        #expect(html.contains("Aisle &lt;1&gt; · Tins &amp; Jars"))
        #expect(html.contains("Shelf &quot;top&quot;"))
    }

    @Test("a NUL or escape character in a name becomes a replacement character, not broken HTML")
    func forbiddenCharacters() throws {
        let route = try PickRoute(lines: [line("1042", "milk", 1, name: "Milk\u{0}\u{1B}Free")], locations: [:])
        let html = route.htmlSheet(header: Store.header)
        #expect(html.contains("Milk\u{FFFD}\u{FFFD}Free"))
        #expect(!html.unicodeScalars.contains("\u{0}"))
    }

    @Test("one checkbox per stop, one heading per aisle section, the tote legend and the header")
    func sheetStructure() throws {
        let pickList = busyPickList(orders: 12)
        let route = try PickRoute(lines: pickList.lines, locations: pickList.locations)
        let html = route.htmlSheet(header: Store.header)

        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "class=\"checkbox\"").count - 1 == route.stops.count)
        #expect(html.components(separatedBy: "<h3>Aisle ").count - 1 == route.sections.count)
        #expect(html.components(separatedBy: "<section class=\"aisle\">").count - 1 == route.sections.count)
        for tote in route.totes {
            #expect(html.contains("<li><span class=\"tote\">\(tote.label)</span> #\(tote.orderNumber)</li>"))
        }
        #expect(html.contains("Corner Store Deli"))
        #expect(html.contains("<strong class=\"pick-list-id\">B-0007</strong>"))
        #expect(html.contains("<time datetime=\"2025-11-22T16:35:00Z\">2025-11-22 16:35 GMT</time>"))
    }

    @Test("the page is A4 and a page break can never split a stop or strand a heading")
    func printRules() throws {
        let html = try PickRoute(lines: [line("1042", "milk", 1)], locations: [:]).htmlSheet(header: Store.header)
        #expect(html.contains("@page { size: A4"))
        let stopRule = try #require(html.range(of: ".stop {")).upperBound
        let stopRuleEnd = try #require(html[stopRule...].range(of: "}")).lowerBound
        #expect(html[stopRule..<stopRuleEnd].contains("break-inside: avoid"))
        #expect(html.contains(".aisle > h3 {") && html.contains("break-after: avoid"))
    }
}

import PickList

/// HTML from a writer's Markdown made safe to put in a page (issue 31): an allow-list, applied to
/// the HTML the Markdown renderer produced, re-emitting only what it knows.
///
/// Every tag is read and written again from scratch: a tag on the list keeps only the attributes
/// on its list, each value decoded (so `&#106;avascript:` is seen as what a browser sees), checked
/// and escaped again; any other tag is dropped (its text stays, escaped), and the content of
/// `script`, `style` and the other containers that are never text is dropped with them. So no
/// script, no style, no event handler, no `javascript:` or `data:` link (links are http, https,
/// mailto, or a path of this service), and images only from this service (a path starting with
/// one `/`). Comments, doctypes and processing instructions go; a `<` that starts no tag is text.
package enum SafeHTML {
    /// The tags a body may keep, and the attributes each may carry.
    package static let allowed: [String: Set<String>] = [
        "p": [], "br": [], "hr": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [],
        "strong": [], "em": [], "b": [], "i": [], "code": [], "pre": [], "blockquote": [], "del": [], "s": [],
        "ul": [], "ol": ["start"], "li": [], "table": [], "thead": [], "tbody": [], "tr": [], "th": [], "td": [],
        "a": ["href", "title"], "img": ["src", "alt", "title"],
    ]

    /// Tags whose content is never shown as text: dropped with everything inside them.
    package static let dropped: Set<String> = [
        "script", "style", "iframe", "object", "embed", "svg", "math", "template", "noscript", "textarea", "title", "xmp",
        "noembed", "noframes", "plaintext", "frameset", "frame", "applet", "select", "option", "head",
    ]

    package static let voidTags: Set<String> = ["br", "hr", "img"]

    /// `html` with only what the allow-list keeps.
    package static func sanitize(_ html: String) -> String {
        let input = Array(html.unicodeScalars)
        var output = ""
        var index = 0
        while index < input.count {
            let scalar = input[index]
            guard scalar == "<" else {
                appendText(scalar, input: input, at: &index, to: &output)
                continue
            }
            if let end = skipMarkup(input, from: index) {  // <!-- -->, <!doctype>, <?...>
                index = end
                continue
            }
            guard let tag = Tag.read(input, from: index) else {
                output += "&lt;"
                index += 1
                continue
            }
            index = tag.end
            if dropped.contains(tag.name) {
                if !tag.closing && !tag.selfClosing { index = skipContent(of: tag.name, in: input, from: index) }
                continue
            }
            guard let permitted = allowed[tag.name] else { continue }
            if tag.closing {
                if !voidTags.contains(tag.name) { output += "</\(tag.name)>" }
                continue
            }
            output += "<\(tag.name)"
            for (name, value) in tag.attributes where permitted.contains(name) {
                guard let safe = safeValue(value, attribute: name, tag: tag.name) else { continue }
                output += " \(name)=\"\(HTMLEscaping.escape(safe))\""
            }
            if tag.name == "a" { output += " rel=\"nofollow noopener\"" }
            output += ">"
        }
        return output
    }

    /// Text, with `&` kept only where it starts an entity and `>` escaped; `"` and `'` are safe in text.
    private static func appendText(_ scalar: Unicode.Scalar, input: [Unicode.Scalar], at index: inout Int, to output: inout String) {
        defer { index += 1 }
        switch scalar {
        case "&":
            output += entityLength(input, from: index) != nil ? "&" : "&amp;"
        case ">": output += "&gt;"
        case "\u{0}": break
        default: output.unicodeScalars.append(scalar)
        }
    }

    /// `&name;`, `&#123;` or `&#x1f;` at `start`: its length, else nil.
    package static func entityLength(_ input: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        var digits = 0
        let numeric = index < input.count && input[index] == "#"
        if numeric { index += 1 }
        let hex = numeric && index < input.count && (input[index] == "x" || input[index] == "X")
        if hex { index += 1 }
        while index < input.count, digits < 32 {
            let c = input[index]
            let ok =
                numeric
                ? (hex ? c.properties.isASCIIHexDigit : ("0"..."9").contains(c)) : (c.isASCII && c.properties.isAlphabetic || ("0"..."9").contains(c))
            guard ok else { break }
            digits += 1
            index += 1
        }
        guard digits > 0, index < input.count, input[index] == ";" else { return nil }
        return index - start + 1
    }

    /// A comment, doctype or processing instruction starting at `start`: the index after it.
    private static func skipMarkup(_ input: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 1 < input.count, input[start + 1] == "!" || input[start + 1] == "?" else { return nil }
        let isComment = start + 3 < input.count && input[start + 2] == "-" && input[start + 3] == "-"
        var index = start + 2
        while index < input.count {
            if isComment {
                if input[index] == ">" && index >= start + 4 && input[index - 1] == "-" && input[index - 2] == "-" { return index + 1 }
            } else if input[index] == ">" {
                return index + 1
            }
            index += 1
        }
        return input.count
    }

    /// Past the closing tag of `name` (any case), or to the end: a dropped container's content.
    private static func skipContent(of name: String, in input: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < input.count {
            if input[index] == "<", let tag = Tag.read(input, from: index), tag.closing, tag.name == name { return tag.end }
            index += 1
        }
        return input.count
    }

    /// An attribute's value as the browser would read it, when it is safe to keep.
    package static func safeValue(_ raw: String, attribute: String, tag: String) -> String? {
        let value = decodeEntities(raw)
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) else { return nil }
        switch (tag, attribute) {
        case ("a", "href"): return isSafeLink(value) ? value : nil
        case ("img", "src"): return isLocalPath(value) ? value : nil
        case ("ol", "start"): return value.count <= 6 && value.allSatisfy(\.isNumber) ? value : nil
        default: return value.count <= 500 ? value : nil
        }
    }

    /// http, https and mailto links, a path of this service, or a fragment. What a browser
    /// ignores (whitespace and control characters) is taken out before the scheme is read.
    package static func isSafeLink(_ value: String) -> Bool {
        let compact = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value > 0x20 })).lowercased()
        if compact.hasPrefix("#") { return true }
        if isLocalPath(compact) { return true }
        return compact.hasPrefix("https://") || compact.hasPrefix("http://") || compact.hasPrefix("mailto:")
    }

    /// A path on this service: one leading `/`, not `//` (another host) nor `/\` (which browsers read as `//`).
    package static func isLocalPath(_ value: String) -> Bool {
        let compact = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value > 0x20 }))
        guard compact.hasPrefix("/"), !compact.hasPrefix("//"), !compact.hasPrefix("/\\") else { return false }
        return !compact.contains(":") || compact.firstIndex(of: ":")! > (compact.firstIndex(of: "?") ?? compact.endIndex)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#39;`, `&#x6A;` and the like decoded; other names left as written.
    package static func decodeEntities(_ text: String) -> String {
        let input = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        let named: [String: Unicode.Scalar] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "tab": "\t", "newline": "\n", "sol": "/",
            "lpar": "(", "rpar": ")",
        ]
        while index < input.count {
            // Browsers also accept a numeric reference without its `;`: read the digits either way.
            if input[index] == "&", index + 1 < input.count {
                var end = index + 1
                if input[end] == "#" {
                    end += 1
                    let hex = end < input.count && (input[end] == "x" || input[end] == "X")
                    if hex { end += 1 }
                    let digitsStart = end
                    while end < input.count, hex ? input[end].properties.isASCIIHexDigit : ("0"..."9").contains(input[end]), end - digitsStart < 8 {
                        end += 1
                    }
                    let digits = String(String.UnicodeScalarView(input[digitsStart..<end]))
                    if let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code) {
                        output.append(scalar)
                        index = end < input.count && input[end] == ";" ? end + 1 : end
                        continue
                    }
                } else if let length = entityLength(input, from: index) {
                    let name = String(String.UnicodeScalarView(input[(index + 1)..<(index + length - 1)])).lowercased()
                    if let scalar = named[name] {
                        output.append(scalar)
                        index += length
                        continue
                    }
                }
            }
            output.append(input[index])
            index += 1
        }
        return String(output)
    }
}

/// One tag as read from HTML: its lowercased name, whether it closes or closes itself, its
/// attributes (lowercased names, raw values) and the index just past its `>`.
package struct Tag {
    package var name: String
    package var closing: Bool
    package var selfClosing: Bool
    package var attributes: [(String, String)]
    package var end: Int

    /// The tag at `start` (a `<`), or nil when none starts there (the `<` is then text).
    package static func read(_ input: [Unicode.Scalar], from start: Int) -> Tag? {
        var index = start + 1
        var closing = false
        if index < input.count, input[index] == "/" {
            closing = true
            index += 1
        }
        var name = ""
        while index < input.count, input[index].isASCII, input[index].properties.isAlphabetic || ("0"..."9").contains(input[index]) {
            name.unicodeScalars.append(input[index])
            index += 1
        }
        guard !name.isEmpty, name.unicodeScalars.first!.properties.isAlphabetic else { return nil }
        var attributes: [(String, String)] = []
        var selfClosing = false
        while index < input.count {
            let c = input[index]
            if c == ">" { return Tag(name: name.lowercased(), closing: closing, selfClosing: selfClosing, attributes: attributes, end: index + 1) }
            if c == "/" {
                selfClosing = true
                index += 1
                continue
            }
            if c.properties.isWhitespace {
                index += 1
                continue
            }
            selfClosing = false
            var attribute = ""
            while index < input.count, !input[index].properties.isWhitespace, input[index] != "=", input[index] != ">",
                input[index] != "/" || attribute.isEmpty
            {
                attribute.unicodeScalars.append(input[index])
                index += 1
            }
            while index < input.count, input[index].properties.isWhitespace { index += 1 }
            var value = ""
            if index < input.count, input[index] == "=" {
                index += 1
                while index < input.count, input[index].properties.isWhitespace { index += 1 }
                if index < input.count, input[index] == "\"" || input[index] == "'" {
                    let quote = input[index]
                    index += 1
                    while index < input.count, input[index] != quote {
                        value.unicodeScalars.append(input[index])
                        index += 1
                    }
                    index += 1
                } else {
                    while index < input.count, !input[index].properties.isWhitespace, input[index] != ">" {
                        value.unicodeScalars.append(input[index])
                        index += 1
                    }
                }
            }
            attributes.append((attribute.lowercased(), value))
        }
        return nil  // an unclosed tag: text
    }
}

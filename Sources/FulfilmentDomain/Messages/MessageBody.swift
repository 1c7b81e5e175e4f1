import Foundation
import PickList

/// A message's content as blocks, written once by a template and rendered twice: as plain text
/// and as HTML that reads well in a phone's mail app (one column, at most 600 px, system fonts,
/// inline styles only, since mail programs drop style sheets).
package struct MessageBody: Sendable {
    package enum Block: Sendable {
        case heading(String)
        case paragraph(String)
        /// Label and value pairs (store, slot, total).
        case facts([(String, String)])
        /// An order's lines: name, quantity, amount.
        case lines([(String, Int, String)])
        /// A link as a button (HTML) or a labelled address (text).
        case button(String, URL)
        /// The inline image `cid` with its alt text; the text part says what to show instead.
        case image(cid: String, alt: String, textInstead: String)
        case note(String)
    }

    package var blocks: [Block]
    /// The store (or chain) the message comes from, at the head and foot.
    package var sender: String
    package var senderAddress: String
    package var logoURL: String?
    /// Why the reader gets it, at the foot (and, for optional messages, how to stop).
    package var footer: String
    package var unsubscribe: URL?

    package var text: String {
        var out: [String] = [sender, ""]
        for block in blocks {
            switch block {
            case .heading(let text): out += [text, String(repeating: "=", count: min(text.count, 60)), ""]
            case .paragraph(let text), .note(let text): out += [text, ""]
            case .facts(let pairs): out += pairs.map { "\($0.0): \($0.1)" } + [""]
            case .lines(let lines): out += lines.map { "\($0.1) x \($0.0)  \($0.2)" } + [""]
            case .button(let label, let url): out += ["\(label): \(url.absoluteString)", ""]
            case .image(_, _, let instead): out += [instead, ""]
            }
        }
        out += ["--", footer]
        if !senderAddress.isEmpty { out.append("\(sender), \(senderAddress)") }
        if let unsubscribe { out.append("Unsubscribe: \(unsubscribe.absoluteString)") }
        return out.joined(separator: "\n") + "\n"
    }

    package var html: String {
        func e(_ text: String) -> String { HTMLEscaping.escape(text) }
        var out = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>\(e(sender))</title></head>\
            <body style="margin:0;padding:0;background:#f4f4f4;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a">\
            <div style="max-width:600px;margin:0 auto;background:#ffffff;padding:16px;box-sizing:border-box;width:100%">
            """
        if let logo = logoURL {
            out += "<p style=\"margin:0 0 12px\"><img src=\"\(e(logo))\" alt=\"\(e(sender))\" style=\"max-width:160px;height:auto\"></p>"
        } else {
            out += "<p style=\"margin:0 0 12px;font-weight:bold;font-size:18px\">\(e(sender))</p>"
        }
        for block in blocks {
            switch block {
            case .heading(let text): out += "<h1 style=\"font-size:22px;line-height:1.3;margin:8px 0 12px\">\(e(text))</h1>"
            case .paragraph(let text): out += "<p style=\"font-size:16px;line-height:1.5;margin:0 0 12px\">\(e(text))</p>"
            case .note(let text):
                out += "<p style=\"font-size:14px;line-height:1.5;margin:0 0 12px;padding:8px;background:#fff4d6;border-radius:4px\">\(e(text))</p>"
            case .facts(let pairs):
                out += "<table role=\"presentation\" style=\"width:100%;border-collapse:collapse;margin:0 0 12px;font-size:15px\">"
                for (label, value) in pairs {
                    out += "<tr><th style=\"text-align:left;vertical-align:top;padding:4px 8px 4px 0;color:#555;font-weight:normal\">\(e(label))</th>"
                    out += "<td style=\"padding:4px 0;word-break:break-word\">\(e(value))</td></tr>"
                }
                out += "</table>"
            case .lines(let lines):
                out += "<table role=\"presentation\" style=\"width:100%;border-collapse:collapse;margin:0 0 12px;font-size:15px\">"
                for (name, quantity, amount) in lines {
                    out += "<tr><td style=\"padding:4px 8px 4px 0;border-bottom:1px solid #eee;word-break:break-word\">\(quantity) × \(e(name))</td>"
                    out += "<td style=\"padding:4px 0;border-bottom:1px solid #eee;text-align:right;white-space:nowrap\">\(e(amount))</td></tr>"
                }
                out += "</table>"
            case .button(let label, let url):
                out += """
                    <p style="margin:16px 0"><a href="\(e(url.absoluteString))" style="display:inline-block;background:#1b6e3a;color:#ffffff;\
                    text-decoration:none;padding:12px 20px;border-radius:6px;font-size:16px">\(e(label))</a></p>
                    """
            case .image(let cid, let alt, _):
                out +=
                    "<p style=\"margin:12px 0;text-align:center\"><img src=\"cid:\(e(cid))\" alt=\"\(e(alt))\" width=\"240\" height=\"240\" style=\"max-width:100%;height:auto\"></p>"
            }
        }
        out += "<hr style=\"border:0;border-top:1px solid #ddd;margin:16px 0\"><p style=\"font-size:13px;color:#555;line-height:1.5\">\(e(footer))"
        if !senderAddress.isEmpty { out += "<br>\(e(sender)), \(e(senderAddress))" }
        if let unsubscribe { out += "<br><a href=\"\(e(unsubscribe.absoluteString))\" style=\"color:#555\">Unsubscribe</a>" }
        out += "</p></div></body></html>"
        return out
    }
}

import Crypto
import Foundation

/// One email as a mail reader receives it (RFC 5322 with MIME): a plain-text and an HTML part
/// (`multipart/alternative`), inline images the HTML names by `cid:` (`multipart/related`), a
/// `Message-ID` the caller derives from the moment it tells about (so a resend after a crash is
/// the same message, and a reader's client shows it once), UTF-8 headers encoded per RFC 2047,
/// and, for anything not strictly transactional, `List-Unsubscribe` with one-click
/// `List-Unsubscribe-Post` (RFC 8058). A plain value: rendering is pure and repeatable.
package struct MailMessage: Sendable, Equatable {
    package struct Address: Sendable, Equatable {
        package var email: String
        package var name: String?

        package init(_ email: String, name: String? = nil) {
            self.email = email
            self.name = name
        }
    }

    /// An image the HTML shows inline as `<img src="cid:ID">`.
    package struct InlineImage: Sendable, Equatable {
        package var contentID: String
        package var contentType: String
        package var filename: String
        package var data: Data

        package init(contentID: String, contentType: String = "image/png", filename: String, data: Data) {
            self.contentID = contentID
            self.contentType = contentType
            self.filename = filename
            self.data = data
        }
    }

    package var from: Address
    package var to: [Address]
    package var subject: String
    package var text: String
    package var html: String
    package var images: [InlineImage]
    /// The `Message-ID` without its angle brackets (`local@domain`), from the moment it tells about.
    package var messageID: String
    package var date: Date
    /// Where one click unsubscribes (an HTTPS URL that takes a POST), for optional messages only.
    package var unsubscribe: URL?

    package init(
        from: Address, to: [Address], subject: String, text: String, html: String, images: [InlineImage] = [], messageID: String,
        date: Date, unsubscribe: URL? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.images = images
        self.messageID = messageID
        self.date = date
        self.unsubscribe = unsubscribe
    }

    /// The message's bytes, CRLF line ends, every line within 78 characters: what goes after
    /// SMTP's `DATA` (the transport dot-stuffs it).
    package func rendered() -> Data {
        var lines: [String] = []
        lines.append("From: \(Self.header(from))")
        lines.append("To: \(to.map(Self.header).joined(separator: ", "))")
        lines.append("Subject: \(Self.encodedWords(subject, already: "Subject: ".count))")
        lines.append("Date: \(Self.rfc5322Date(date))")
        lines.append("Message-ID: <\(messageID)>")
        if let unsubscribe {
            lines.append("List-Unsubscribe: <\(unsubscribe.absoluteString)>")
            lines.append("List-Unsubscribe-Post: List-Unsubscribe=One-Click")
        }
        lines.append("MIME-Version: 1.0")
        let alternative = Self.boundary("alt", messageID)
        let alternativeBody =
            [
                "--\(alternative)",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: base64",
                "",
            ] + Self.base64Lines(Data(text.utf8)) + [
                "--\(alternative)",
                "Content-Type: text/html; charset=utf-8",
                "Content-Transfer-Encoding: base64",
                "",
            ] + Self.base64Lines(Data(html.utf8)) + ["--\(alternative)--"]
        if images.isEmpty {
            lines.append("Content-Type: multipart/alternative; boundary=\"\(alternative)\"")
            lines.append("")
            lines += alternativeBody
        } else {
            let related = Self.boundary("rel", messageID)
            lines.append("Content-Type: multipart/related; boundary=\"\(related)\";\r\n type=\"multipart/alternative\"")
            lines.append("")
            lines.append("--\(related)")
            lines.append("Content-Type: multipart/alternative; boundary=\"\(alternative)\"")
            lines.append("")
            lines += alternativeBody
            for image in images {
                lines.append("--\(related)")
                lines.append("Content-Type: \(image.contentType)")
                lines.append("Content-Transfer-Encoding: base64")
                lines.append("Content-ID: <\(image.contentID)>")
                lines.append("Content-Disposition: inline; filename=\"\(Self.asciiToken(image.filename))\"")
                lines.append("")
                lines += Self.base64Lines(image.data)
            }
            lines.append("--\(related)--")
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// `Name <email>`, the name as encoded words when it is not plain ASCII text.
    static func header(_ address: Address) -> String {
        guard let name = address.name, !name.isEmpty else { return address.email }
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == " " || $0.properties.numericType != nil) }
        let display = plain ? name : encodedWords(name, already: 0)
        // A long name and its address go on two lines (a folding space before the address).
        let last = display.components(separatedBy: "\r\n").last ?? display
        return last.count + address.email.count + 8 > 78 ? "\(display)\r\n <\(address.email)>" : "\(display) <\(address.email)>"
    }

    /// RFC 2047 B-encoded words for text that is not plain ASCII (or is long), each word at most
    /// 75 characters and never splitting a character's UTF-8 bytes; plain short ASCII as is.
    static func encodedWords(_ text: String, already: Int) -> String {
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if printable && already + text.count <= 78 { return text }
        // 36 bytes a word: 48 characters of base64 and 12 of "=?utf-8?B?…?=", so the first line
        // stays within 78 after its header name and each next line after its folding space.
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 36, !chunk.isEmpty {
                words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    /// A boundary that cannot occur in base64 text (it holds `=_`), and differs per message: a
    /// digest of the message id, short enough for its header line.
    static func boundary(_ kind: String, _ messageID: String) -> String {
        "=_\(kind)_" + SHA256.hash(data: Data(messageID.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// Letters, digits, `.`, `-` and `_` only: safe in a quoted header parameter.
    static func asciiToken(_ text: String) -> String {
        String(
            text.unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || ".-_".unicodeScalars.contains($0))
                    ? Character($0) : "_"
            })
    }

    static func base64Lines(_ data: Data) -> [String] {
        let text = data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return text.isEmpty ? [""] : text.components(separatedBy: "\r\n")
    }

    /// `Fri, 27 Nov 2026 14:09:23 +0000`, in English whatever the machine's locale.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

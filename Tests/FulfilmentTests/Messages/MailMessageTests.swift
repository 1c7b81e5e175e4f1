import Foundation
import QRReceipt
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A message is read back the way a mail reader reads it: by Python's `email` package (the
/// parser behind many mail tools), its QR decoded by zbarimg.
@Suite("Mail messages read as a mail reader reads them")
struct MailMessageTests {
    static let reader = #"""
        import email, email.policy, json, sys
        data = open(sys.argv[1], 'rb').read()
        m = email.message_from_bytes(data, policy=email.policy.default)
        parts = [p.get_content_type() for p in m.walk()]
        text = m.get_body(preferencelist=('plain',)).get_content()
        html = m.get_body(preferencelist=('html',)).get_content()
        images = [p for p in m.walk() if p.get_content_maintype() == 'image']
        for i, p in enumerate(images):
            open('%s.%d.png' % (sys.argv[1], i), 'wb').write(p.get_content())
        print(json.dumps({
            'subject': str(m['subject']), 'from': str(m['from']), 'to': str(m['to']),
            'messageId': str(m['message-id']), 'date': str(m['date']),
            'unsubscribe': str(m['list-unsubscribe']), 'unsubscribePost': str(m['list-unsubscribe-post']),
            'parts': parts, 'text': text, 'html': html,
            'cids': [str(p['content-id']) for p in images], 'defects': [str(d) for d in m.defects],
            'longest': max(len(line) for line in data.split(b'\r\n')), 'bareLF': data.replace(b'\r\n', b'').count(b'\n'),
        }))
        """#

    struct Read: Decodable {
        var subject, from, to, messageId, date, unsubscribe, unsubscribePost, text, html: String
        var parts, cids, defects: [String]
        var longest, bareLF: Int
    }

    func read(_ message: MailMessage) async throws -> (Read, URL) {
        try await Self.read(message.rendered())
    }

    /// Reads a message's bytes as a mail reader does; its images are written beside the returned
    /// file (`<file>.0.png`, ...).
    static func read(_ bytes: Data) async throws -> (Read, URL) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString).eml")
        try bytes.write(to: file)
        let script = file.appendingPathExtension("py")
        try Self.reader.write(to: script, atomically: true, encoding: .utf8)
        let outcome = try await Subprocess.run("/usr/bin/python3", [script.path, file.path])
        return (try JSONDecoder().decode(Read.self, from: outcome.stdout), file)
    }

    @Test("the receipt: UTF-8 subject and names, text and HTML alternatives, the QR inline by cid, one-click unsubscribe")
    func receipt() async throws {
        let token = "FC1:6BFOXN*TS0BI$ZD4N9:9S6RCVN5+O30K3/XIV0W23NTDEPWK G2EP4J0B"
        let png = Data(try QRCode.encode(token).png(scale: 4))
        let message = MailMessage(
            from: MailMessage.Address("orders@corner.example", name: "Corner Store Deli"),
            to: [MailMessage.Address("keisha@example.com", name: "Keisha Brown-Ñúñez")],
            subject: "Your order #1043 is ready at Corner Store Deli — bring your code, and ID for the rum ✓",
            text: "Hello Keisha,\n\nYour order #1043 is ready.\n.\nShow the code at the desk.\n",
            html: "<p>Hello Keisha,</p><p>Your order <b>#1043</b> is ready.</p><img src=\"cid:qr-1043@corner.example\" alt=\"Your pickup code\">",
            images: [MailMessage.InlineImage(contentID: "qr-1043@corner.example", filename: "pickup-code.png", data: png)],
            messageID: "order.ready.0d6c3f8e@corner.example", date: Date(timeIntervalSince1970: 1_795_795_763),
            unsubscribe: URL(string: "https://corner.example/unsubscribe/abc"))
        let (read, file) = try await read(message)
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(read.subject == message.subject)
        #expect(read.from == "Corner Store Deli <orders@corner.example>")
        #expect(read.to == "Keisha Brown-Ñúñez <keisha@example.com>")
        #expect(read.messageId == "<order.ready.0d6c3f8e@corner.example>")
        #expect(read.date == "Fri, 27 Nov 2026 16:09:23 +0000")
        #expect(read.unsubscribe == "<https://corner.example/unsubscribe/abc>")
        #expect(read.unsubscribePost == "List-Unsubscribe=One-Click")
        #expect(read.parts == ["multipart/related", "multipart/alternative", "text/plain", "text/html", "image/png"])
        #expect(read.text == message.text)
        #expect(read.html == message.html)
        #expect(read.cids == ["<qr-1043@corner.example>"])
        #expect(read.longest <= 78, "a line of \(read.longest) characters")
        #expect(read.bareLF == 0)
        // The inline image is the receipt: zbarimg reads the token back from it.
        let zbarimg = try #require(WebDriver.executable("zbarimg"), "zbarimg is not installed (apt-get install zbar-tools)")
        let decoded = try await Subprocess.run(zbarimg.path, ["--raw", "-q", file.path + ".0.png"])
        #expect(decoded.output.trimmingCharacters(in: .whitespacesAndNewlines) == token)
    }

    @Test("a transactional message without images is multipart/alternative and has no unsubscribe header")
    func transactional() async throws {
        let message = MailMessage(
            from: MailMessage.Address("orders@corner.example"), to: [MailMessage.Address("a@example.com")],
            subject: "Reset your password", text: "Follow the link.", html: "<p>Follow the link.</p>",
            messageID: "password.reset.1@corner.example", date: Date(timeIntervalSince1970: 0))
        let (read, _) = try await read(message)
        #expect(read.parts == ["multipart/alternative", "text/plain", "text/html"])
        #expect(read.subject == "Reset your password")
        #expect(read.unsubscribe == "None")
        #expect(read.defects.isEmpty)
    }

    @Test("the same moment renders the same bytes (a resend after a crash is the same message)")
    func repeatable() {
        let message = MailMessage(
            from: MailMessage.Address("orders@corner.example"), to: [MailMessage.Address("a@example.com")], subject: "Ready",
            text: "t", html: "<p>t</p>", messageID: "order.ready.1@corner.example", date: Date(timeIntervalSince1970: 100))
        #expect(message.rendered() == message.rendered())
        var other = message
        other.messageID = "order.ready.2@corner.example"
        #expect(other.rendered() != message.rendered())
    }
}

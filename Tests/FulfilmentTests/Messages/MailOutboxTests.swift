import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Messages that reach people (issue 44): every moment of an order is a row of the outbox,
/// written with the change, and sent by the service to a real SMTP server (aiosmtpd with
/// STARTTLS and AUTH), where it is read as a mail reader reads it and its QR decoded by zbarimg.
@Suite("Mail: the outbox sent to a real mail server")
struct MailOutboxTests {
    /// The app's mail settings for `server` (nil: no server, messages kept): quick polls and retries.
    static func configure(_ server: TestSMTPServer?, port: Int? = nil, retries: [Double] = [0.2, 0.2, 0.2, 0.2, 0.2])
        -> @Sendable (inout AppConfiguration) -> Void
    {
        let url = server.map { server in
            let secret = server.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            return "smtp://\(server.username):\(secret)@127.0.0.1:\(port ?? server.port)"
        }
        let certificate = server?.certificate.path
        return { configuration in
            var mail = MailSettings()
            if let url { mail.smtp = try! SMTPSettings(url: url, caFile: certificate) }
            mail.smtp?.connectTimeout = .seconds(5)
            mail.smtp?.totalTimeout = .seconds(20)
            mail.from = MailMessage.Address("orders@corner.example", name: "Corner Chain")
            mail.publicURL = "https://shop.corner.example"
            mail.pollInterval = .milliseconds(100)
            mail.retrySchedule = retries.map { .milliseconds(Int64($0 * 1000)) }
            configuration.mail = mail
        }
    }

    /// The messages the server took for `address`, read as a mail reader reads them.
    static func mailbox(_ server: TestSMTPServer, _ address: String) async throws -> [(MailMessageTests.Read, URL)] {
        var read: [(MailMessageTests.Read, URL)] = []
        for message in try server.received() where message.to.contains(address) {
            read.append(try await MailMessageTests.read(message.content))
        }
        return read
    }

    static func email(_ session: Session, _ app: TestApp) async throws -> String {
        try await sql("SELECT email FROM users WHERE id = $1", [session.userID], on: app.database)[0][0]!
    }

    @Test("the receipt reaches the customer's mailbox with its QR, which the desk accepts; the Message-ID is the message's")
    func receipt() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: Self.configure(server)) { app in
            let store = try await app.createStore(name: "Corner Store Deli")
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 2)
            let id = order["id"].string!
            try await app.waitForMail(settled: 1)
            let sent = try await app.messages(.orderPlaced, order: id)
            try #require(sent.count == 1, "\(sent)")
            #expect(sent[0].status == "sent", "\(sent[0].error ?? "")\n\(server.log)")

            let address = try await Self.email(customer, app)
            let mails = try await Self.mailbox(server, address)
            try #require(mails.count == 1)
            let (mail, file) = mails[0]
            #expect(mail.defects.isEmpty, "\(mail.defects)")
            #expect(mail.subject == "Your order #\(order["number"].int!) at Corner Store Deli")
            #expect(mail.from == "Corner Store Deli <orders@corner.example>")
            #expect(mail.to.hasSuffix("<\(address)>"))
            #expect(mail.messageId == "<\(sent[0].id)@corner.example>")
            #expect(mail.parts == ["multipart/related", "multipart/alternative", "text/plain", "text/html", "image/png"])
            #expect(mail.text.contains("Total: JMD 30.00"), "\(mail.text)")
            #expect(mail.html.contains("https://shop.corner.example/orders/\(id)"))
            #expect(mail.unsubscribe == "None", "a receipt is transactional")
            #expect(mail.longest <= 78)

            // The inline image is the receipt: zbarimg reads the token, and the desk takes it.
            let zbarimg = try #require(WebDriver.executable("zbarimg"), "zbarimg is not installed (apt-get install zbar-tools)")
            let decoded = try await Subprocess.run(zbarimg.path, ["--raw", "-q", file.path + ".0.png"])
            let token = decoded.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token == order["pickupToken"].string)
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.transition(id, to: "delivering", by: staff).status == .ok)
            #expect(try await app.pay(order, by: staff).status == .created)
            #expect(try await app.scan(token, by: staff).status == .ok)

            // Packaged: the ready message, with the QR again; the order's messages through the API.
            try await app.waitForMail(settled: 2)
            let ready = try await Self.mailbox(server, address).map(\.0).filter { $0.subject.contains("is ready to collect") }
            #expect(ready.count == 1)
            #expect(ready.first?.cids == ["<\(MessageTemplates.qrContentID)>"])
            let listed = try await app.request(.get, "/v1/orders/\(id)/messages", token: customer.token)
            #expect(listed.status == .ok)
            #expect(listed.json["items"].array.map { $0["kind"].string } == ["order_placed", "ready_for_pickup"])
            #expect(listed.json["items"][0]["status"].string == "sent")
            #expect(listed.json["items"][0]["recipient"].string == address)
            #expect(try await app.request(.get, "/v1/orders/\(id)/messages", token: staff.token).status == .ok)
            let stranger = try await app.registerCustomer()
            #expect(try await app.request(.get, "/v1/orders/\(id)/messages", token: stranger.token).status == .notFound)
        }
    }

    @Test("cancelled, refunded, reminded: each moment once, the reminder only for who wants it")
    func moments() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: Self.configure(server)) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)

            // A prepaid order cancelled by the store: the cancellation says a refund is due, then the refund.
            let (customer, order, _) = try await app.placeOrder(store: store, method: "prepaid")
            let id = order["id"].string!
            let paid = try await app.webhook(
                try CommitFailureTests.paymentEvent("payment.succeeded", order: order))
            #expect(paid.status.code < 300, "\(paid.text)")
            let cancelled = try await app.request(
                .post, "/v1/orders/\(id)/transitions", json: ["to": "cancelled", "reason": "Freezer failed"], token: staff.token)
            #expect(cancelled.status == .ok, "\(cancelled.text)")
            let refund = try await app.request(
                .post, "/v1/orders/\(id)/refunds", json: ["amount": order["total"], "note": "Cancelled"], token: manager.token)
            #expect(refund.status == .created, "\(refund.text)")
            try await app.waitForMail(settled: 3)
            let address = try await Self.email(customer, app)
            let subjects = try await Self.mailbox(server, address).map(\.0.subject)
            #expect(subjects.count == 3, "\(subjects)")
            #expect(subjects.contains("Order #\(order["number"].int!) at Test Store was cancelled"))
            #expect(subjects.contains("Refund of JMD 15.00 for order #\(order["number"].int!)"))
            let cancellation = try await Self.mailbox(server, address).map(\.0).first { $0.subject.contains("cancelled") }
            #expect(cancellation?.text.contains("Freezer failed") == true)
            #expect(cancellation?.text.contains("You are owed JMD 15.00") == true)

            // Two ready orders near their expiry: the one whose customer turned reminders off gets none.
            let (keen, first, _) = try await app.placeOrder(store: store)
            let (quiet, second, _) = try await app.placeOrder(store: store)
            let off = try await app.request(
                .patch, "/v1/me", json: ["messagePreferences": ["backInStock": false, "reminders": false]], token: quiet.token)
            #expect(off.status == .ok, "\(off.text)")
            #expect(off.json["messagePreferences"]["reminders"].bool == false)
            for ready in [first, second] {
                #expect(try await app.transition(ready["id"].string!, to: "packaged", by: staff).status == .ok)
            }
            _ = try await sql("UPDATE pickup_tokens SET expires_at = now() + interval '2 hours'", on: app.database)
            let queued = try await sql("SELECT queue_collection_reminders(), queue_collection_reminders()", on: app.database)[0]
            #expect(queued == ["1", "0"], "one reminder, and once")
            try await app.waitForMail(settled: 8)
            let reminders = try await app.messages(.collectionReminder)
            #expect(reminders.map(\.recipient) == [try await Self.email(keen, app)])
            let reminder = try #require(
                try await Self.mailbox(server, try await Self.email(keen, app)).map(\.0).first { $0.subject.contains("waiting") })
            #expect(reminder.unsubscribe.hasPrefix("<https://shop.corner.example/unsubscribe?kind=collection_reminder&token="))
            #expect(reminder.unsubscribePost == "List-Unsubscribe=One-Click")
            #expect(try await Self.mailbox(server, try await Self.email(quiet, app)).map(\.0).allSatisfy { !$0.subject.contains("waiting") })
        }
    }

    @Test("a substitution proposed says what was out, what is offered and the difference; a ready message sent again is a new message")
    func substitutionAndResend() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: Self.configure(server)) { app in
            let shop = try await app.substitutionShop()
            let proposed = try await app.substitute(shop, quantity: 2)
            #expect(proposed.status.code < 300, "\(proposed.text)")
            try await app.waitForMail(settled: 2)
            let address = try await Self.email(shop.customer, app)
            let mail = try #require(try await Self.mailbox(server, address).map(\.0).first { $0.subject.contains("substitution") })
            #expect(mail.text.contains("Out of stock: Ackee (Brand A)"), "\(mail.text)")
            #expect(mail.text.contains("Offered: 2 × Ackee (Brand B)"))
            #expect(mail.text.contains("Difference: -JMD 4.00"))
            #expect(mail.text.contains("Accept or refuse: https://shop.corner.example/orders/\(shop.orderID)"))

            // Packed: ready. Sent again by staff a minute later (the history's moment is new): a second message.
            let packed = try await app.transition(shop.orderID, to: "packaged", by: shop.staff)
            #expect(packed.status == .ok, "\(packed.text)")
            _ = try await sql(
                "UPDATE events SET occurred_at = occurred_at - interval '2 minutes' WHERE order_id = $1", [shop.orderID], on: app.database)
            let again = try await app.request(.post, "/v1/orders/\(shop.orderID)/notifications/ready", token: shop.staff.token)
            #expect(again.status == .ok, "\(again.text)")
            let ready = try await app.messages(.readyForPickup, order: shop.orderID)
            #expect(ready.count == 2, "\(ready)")
        }
    }

    @Test("a store's reminder time and logo are the chain admin's settings; 0 hours sends no reminder; the logo heads its messages")
    func storeSettings() async throws {
        try await withApp(configure: Self.configure(nil)) { app in
            let store = try await app.createStore(name: "Logo Mart")
            let admin = try await app.signInAdmin()
            let staff = try await app.signIn(role: .staff, store: store)
            let bad = try await app.request(.patch, "/v1/stores/\(store)", json: ["reminderHours": 9999], token: admin.token)
            #expect(bad.status == .unprocessableContent)
            let insecure = try await app.request(.patch, "/v1/stores/\(store)", json: ["logoUrl": "http://logo.example/a.png"], token: admin.token)
            #expect(insecure.status == .unprocessableContent)
            let set = try await app.request(
                .patch, "/v1/stores/\(store)", json: ["reminderHours": 0, "logoUrl": "https://logo.example/mart.png"], token: admin.token)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set.json["reminderHours"].int == 0)
            #expect(set.json["logoUrl"].string == "https://logo.example/mart.png")
            let (_, order, _) = try await app.placeOrder(store: store)
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: staff).status == .ok)
            _ = try await sql("UPDATE pickup_tokens SET expires_at = now() + interval '10 minutes'", on: app.database)
            #expect(try await sql("SELECT queue_collection_reminders()", on: app.database)[0][0] == "0")
            let manager = try await app.signIn(role: .manager, store: store)
            let placed = try await app.messages(.orderPlaced)[0].id
            let detail = try await app.request(.get, "/v1/messages/\(placed)", token: manager.token)
            #expect(detail.json["html"].string?.contains("<img src=\"https://logo.example/mart.png\" alt=\"Logo Mart\"") == true)
            #expect(detail.json["message"]["kind"].string == "order_placed")
            let cleared = try await app.request(.patch, "/v1/stores/\(store)", json: ["logoUrl": ""], token: admin.token)
            #expect(!cleared.json.has("logoUrl"))
        }
    }

    @Test("back in stock goes only to a customer who said yes")
    func backInStockNeedsConsent() async throws {
        try await withApp(configure: Self.configure(nil)) { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 0)
            let (yes, no) = (try await app.registerCustomer(), try await app.registerCustomer())
            for customer in [yes, no] {
                #expect(try await app.request(.put, "/v1/me/store", json: ["storeId": .string(store)], token: customer.token).status == .ok)
                #expect(try await app.request(.put, "/v1/favourites/\(product)", token: customer.token).status.code < 300)
            }
            let consent = try await app.request(
                .patch, "/v1/me", json: ["messagePreferences": ["backInStock": true, "reminders": true]], token: yes.token)
            #expect(consent.status == .ok)
            _ = try await sql("UPDATE stock SET on_hand = 5 WHERE product_id = $1", [product], on: app.database)
            let sent = try await app.messages(.backInStock)
            #expect(sent.map(\.recipient) == [try await Self.email(yes, app)])
            #expect(sent.first?.status == "pending", "kept: no mail server")
        }
    }

    @Test("a 5xx is final, recorded with the server's words, and the address is not mailed again; a 4xx is retried")
    func failures() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withApp(configure: Self.configure(server, retries: [0.2, 60])) { app in
            let store = try await app.createStore()
            let bouncing = "perm-fail@\(UUID().uuidString.prefix(8).lowercased()).example.com"
            let customer = try await app.registerCustomer(email: bouncing)
            let product = try await app.addProduct(store: store)
            try await app.fillCart(customer, store: store, [(product, 1)])
            #expect(try await app.checkout(customer).status == .created)
            try await app.waitForMail(settled: 1)
            var sent = try await app.messages(.orderPlaced)
            #expect(sent.map(\.status) == ["failed"])
            #expect(sent.first?.error?.contains("550") == true, "\(sent)")
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await app.messages(.orderPlaced).first?.attempts == 1, "a 5xx is not retried")
            #expect(try await sql("SELECT count(*) FROM bounced_addresses", on: app.database)[0][0] == "1")
            // The next order's receipt to that address is not sent, and says why.
            try await app.fillCart(customer, store: store, [(product, 1)])
            #expect(try await app.checkout(customer).status == .created)
            sent = try await app.messages(.orderPlaced)
            #expect(sent.map(\.status) == ["failed", "suppressed"])
            #expect(sent.last?.error?.contains("bounced before") == true)

            // A 451: tried again on the schedule, still pending, with the reply.
            let busy = try await app.registerCustomer(email: "temp-fail@\(UUID().uuidString.prefix(8).lowercased()).example.com")
            try await app.fillCart(busy, store: store, [(product, 1)])
            #expect(try await app.checkout(busy).status == .created)
            var retried: (status: String, recipient: String, attempts: Int, error: String?, id: String)?
            for _ in 0..<200 {
                retried = try await app.messages(.orderPlaced).last
                if (retried?.attempts ?? 0) >= 2 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(retried?.status == "pending")
            #expect((retried?.attempts ?? 0) >= 2)
            #expect(retried?.error?.contains("451") == true)
        }
    }

    @Test("the mail server down, then back on the same port: nothing is lost")
    func serverDownAndBack() async throws {
        let first = try await TestSMTPServer.start()
        let port = first.port
        first.stop()
        try await withApp(configure: Self.configure(first, port: port, retries: [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3])) { app in
            let store = try await app.createStore()
            let (customer, _, _) = try await app.placeOrder(store: store)
            var waiting: [(status: String, recipient: String, attempts: Int, error: String?, id: String)] = []
            for _ in 0..<200 {
                waiting = try await app.messages(.orderPlaced)
                if (waiting.first?.attempts ?? 0) >= 1 && waiting.first?.error != nil { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(waiting.first?.status == "pending", "\(waiting)")
            // Back, with the same user, password and certificate folder's name.
            let again = try await TestSMTPServer.start(username: first.username, password: first.password, port: port)
            defer { again.stop() }
            // The certificate is new: the transport was given the first one's file, which is gone;
            // so this server is trusted through a copy at the old path.
            try FileManager.default.createDirectory(at: first.folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: again.certificate, to: first.certificate)
            defer { try? FileManager.default.removeItem(at: first.folder) }
            try await app.waitForMail(settled: 1, seconds: 30)
            #expect(try await app.messages(.orderPlaced).first?.status == "sent")
            #expect(try await Self.mailbox(again, try await Self.email(customer, app)).count == 1)
        }
    }

    @Test("two instances on one database send each message once")
    func twoInstances() async throws {
        let server = try await TestSMTPServer.start()
        defer { server.stop() }
        try await withTestDatabase { database in
            try await withApp(database: database, configure: Self.configure(server)) { first in
                try await withApp(database: database, configure: Self.configure(server)) { second in
                    let store = try await first.createStore()
                    let orders = 12
                    _ = try await first.race(orders) { index, _ in
                        let app = index % 2 == 0 ? first : second
                        return try await app.placeOrder(store: store).1["id"].string!
                    }
                    try await first.waitForMail(settled: orders, seconds: 30)
                    #expect(try await first.messages(.orderPlaced).allSatisfy { $0.status == "sent" && $0.attempts == 1 })
                    let ids = try server.received().compactMap { message in
                        String(decoding: message.content, as: UTF8.self).split(separator: "\r\n").first { $0.hasPrefix("Message-ID:") }
                    }
                    #expect(ids.count == orders)
                    #expect(Set(ids).count == orders)
                }
            }
        }
    }

    @Test("with no mail server, messages are kept unsent and the log says so once")
    func keptWithoutServer() async throws {
        let log = LogCapture()
        try await withApp(logHandler: log, configure: Self.configure(nil)) { app in
            let store = try await app.createStore()
            _ = try await app.placeOrder(store: store)
            try await Task.sleep(for: .milliseconds(300))
            let kept = try await app.messages(.orderPlaced)
            #expect(kept.map(\.status) == ["pending"])
            #expect(kept.first?.attempts == 0)
            #expect(log.text.components(separatedBy: "no mail server configured").count == 2, "said once")
        }
    }
}

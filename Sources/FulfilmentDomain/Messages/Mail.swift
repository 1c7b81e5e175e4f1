import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The messages of issue 44 as the service reads them: each rendered from its outbox row and the
/// rows it tells of as they are now (`MessageTemplates`), for the sender and for the console's
/// Mail page alike, so what staff read is what was (or will be) sent.
package struct Mail: Sendable {
    package let database: Database
    package let settings: MailSettings
    package let dataKeys: DataKeyStore
    /// Where links in messages point: `FULFILMENT_PUBLIC_URL`, else the service's own address.
    package let baseURL: String

    package init(database: Database, settings: MailSettings, dataKeys: DataKeyStore, baseURL: String) {
        self.database = database
        self.settings = settings
        self.dataKeys = dataKeys
        self.baseURL = baseURL
    }

    /// Whether messages leave this instance (a mail server is configured) or are kept for the Mail page.
    package var isSending: Bool { settings.smtp != nil }

    /// The name messages of no store are signed with: the sender's display name, else its domain.
    package var chainName: String { settings.from.name ?? String(settings.from.email.split(separator: "@").last ?? "our shop") }

    /// The domain of every `Message-ID`: the sender's.
    package var messageIDDomain: String { String(settings.from.email.split(separator: "@").last ?? "localhost") }

    /// What the message's template reads, as the rows are now. For a `reader` (staff on the Mail
    /// page, the API's `getMessage`) a password reset's or an email confirmation's link is left
    /// out while mail is sent: it is the account holder's alone. Kept mail (no server, as with
    /// `make run`) shows it, as a local mail catcher would.
    package func content(of message: MessageRecord, reader: Bool = false, logger: Logger) async throws -> MessageContent {
        let client = database.client
        let store = try await message.storeID.asyncMap { try await MessageContentQueries.store($0, on: client, logger: logger) } ?? nil
        let order = try await message.orderID.asyncMap { try await OrderQueries.order(id: $0, on: client, logger: logger) } ?? nil
        // An order's customer is named on the order; an account's message reads the account.
        var name = order?.customerName ?? ""
        if order == nil, let user = message.userID { name = try await MessageContentQueries.name(of: user, on: client, logger: logger) }
        var content = MessageContent(store: store, order: order, name: name, baseURL: baseURL)
        let withholdLinks = reader && isSending
        switch message.kind {
        case .passwordReset where withholdLinks, .emailChangeConfirmation where withholdLinks, .staffInvite where withholdLinks: break
        case .passwordReset, .staffInvite:
            content.actionURL = try await link(.passwordReset, message, path: "/password-reset/confirm", logger: logger)
        case .emailChangeConfirmation:
            content.actionURL = try await link(.emailChange, message, path: "/account/email/confirm", logger: logger)
        case .backInStock, .collectionReminder:
            if let user = message.userID {
                let token = LinkToken.make(.unsubscribe, id: user.rawValue, key: dataKeys.current.current)
                content.unsubscribe = content.url("/unsubscribe?kind=\(message.kind.rawValue)&token=\(token)")
            }
        default: break
        }
        return content
    }

    /// The link of a reset or an email change, its token made again from the row the message
    /// names (`data.linkId`) under the key it was made with; nil when either is gone.
    private func link(_ purpose: LinkToken.Purpose, _ message: MessageRecord, path: String, logger: Logger) async throws -> URL? {
        guard let text = message.data["linkId"]?.string, let id = UUID(uuidString: text),
            let keyID = try await MessageContentQueries.linkKey(purpose, id: id, on: database.client, logger: logger),
            let key = dataKeys.key(keyID)
        else { return nil }
        return URL(string: baseURL + path + "?token=" + LinkToken.make(purpose, id: id, key: key))
    }

    /// The whole message as it goes to the mail server: both parts, the QR inline, its headers.
    package func compose(_ message: MessageRecord, reader: Bool = false, logger: Logger) async throws -> (MailMessage, MessageTemplates.Rendered) {
        let content = try await content(of: message, reader: reader, logger: logger)
        let rendered = MessageTemplates.render(message, content, chainName: chainName)
        var images: [MailMessage.InlineImage] = []
        if rendered.showsQR, let token = content.order?.pickup?.text {
            let png = try QRCode.encode(token).png(scale: 8)
            images.append(.init(contentID: MessageTemplates.qrContentID, filename: "pickup-code.png", data: Data(png)))
        }
        let from = MailMessage.Address(settings.from.email, name: content.store?.name ?? settings.from.name)
        let mail = MailMessage(
            from: from, to: [MailMessage.Address(message.recipient, name: content.name.isEmpty ? nil : content.name)],
            subject: rendered.subject, text: rendered.body.text, html: rendered.body.html, images: images,
            messageID: message.messageID(domain: messageIDDomain), date: message.createdAt, unsubscribe: rendered.body.unsubscribe)
        return (mail, rendered)
    }

    /// The messages of an order its reader may see (the customer's own, or staff of its store;
    /// another's order is not found), oldest first.
    package func messages(of order: OrderID, visibleTo identity: Identity, orders: Orders, logger: Logger) async throws -> [MessageRecord] {
        try await messages(of: try await orders.order(order, visibleTo: identity, logger: logger), logger: logger)
    }

    /// The messages of an order already read for its reader (that read checked who may see it),
    /// oldest first: the console's order page shows both without reading the order twice.
    package func messages(of order: Order, logger: Logger) async throws -> [MessageRecord] {
        try await MessageQueries.messages(of: order.id, on: database.client, logger: logger)
    }

    /// The newest messages a manager (their store's) or the chain's admin (every one) may read.
    package func newest(for identity: Identity, cursor: String?, limit: Int, logger: Logger) async throws -> Page<MessageRecord> {
        let scope = try StoreScope(managerOrAdmin: identity)
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        return try await MessageQueries.newest(in: scope, after: after, limit: limit, on: database.client, logger: logger)
    }

    /// One message a manager or the chain's admin may read, or nil.
    package func message(_ id: MessageID, for identity: Identity, logger: Logger) async throws -> MessageRecord? {
        try await MessageQueries.message(id, in: try StoreScope(managerOrAdmin: identity), on: database.client, logger: logger)
    }
}

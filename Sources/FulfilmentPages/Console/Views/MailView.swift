import Foundation
import FulfilmentDomain

/// The Mail pages (issue 44): the outbox as a list, and one message as its reader gets it.
enum MailView {
    static func list(session: ConsoleSession, messages: Page<MessageRecord>, sending: Bool) -> ConsolePage {
        let rows = messages.items.map { message -> HTML in
            """
            <tr id="message-\(message.id)">
            <td data-label="Message"><a href="/console/mail/\(message.id)">\(message.kind.label)</a></td>
            <td data-label="To" class="address">\(message.recipient)</td>
            <td data-label="Status">\(status(message))</td>
            <td data-label="Written">\(TimeText.format(message.createdAt))</td>
            </tr>
            """
        }
        let mode: HTML =
            sending
            ? "<p class=\"hint\">Messages go to the mail server; each shows whether it took them.</p>"
            : "<p class=\"notice\" id=\"mail-kept\" role=\"status\">No mail server is configured (FULFILMENT_SMTP_URL): messages are kept here, not sent.</p>"
        let next: HTML = messages.nextCursor.map { "<p><a href=\"/console/mail?cursor=\($0)\" id=\"older\">Older messages</a></p>" } ?? .empty
        return ConsolePage(
            title: "Mail", session: session,
            body: """
                <h1>Mail</h1>
                \(mode)
                \(rows.isEmpty ? "<p id=\"no-mail\">No messages yet.</p>" as HTML : """
                <table id="mail" class="cards">
                <thead><tr><th scope="col">Message</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Written</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """)
                \(next)
                """)
    }

    static func detail(session: ConsoleSession, message: MessageRecord, mail: MailMessage) -> ConsolePage {
        let order: HTML = message.orderID.map { "<dt>Order</dt><dd><a href=\"/console/orders/\($0)\">Open the order</a></dd>" } ?? .empty
        return ConsolePage(
            title: mail.subject, session: session,
            body: """
                <p><a href="/console/mail">← Mail</a></p>
                <h1 id="mail-subject">\(mail.subject)</h1>
                <dl class="facts">
                <dt>To</dt><dd id="mail-to">\(message.recipient)</dd>
                <dt>Status</dt><dd id="mail-status">\(status(message))</dd>
                <dt>Message-ID</dt><dd>&lt;\(mail.messageID)&gt;</dd>
                \(order)
                </dl>
                <h2>As it reads</h2>
                <iframe class="mail-frame" title="The message" src="/console/mail/\(message.id)/body" sandbox></iframe>
                <details><summary>Plain text</summary><pre id="mail-text">\(mail.text)</pre></details>
                """)
    }

    /// A message's status in words: sent when, kept, waiting to retry and why, failed and why.
    static func status(_ message: MessageRecord) -> HTML {
        switch message.status {
        case .sent: "<span class=\"status status-completed\">Sent</span> \(message.sentAt.map(TimeText.format) ?? "")"
        case .pending where message.attempts == 0: "<span class=\"status status-pending\">Not sent yet</span>"
        case .pending: "<span class=\"status status-pending\">Retrying</span> \(message.lastError ?? "")"
        case .failed: "<span class=\"status status-cancelled\">Failed</span> \(message.lastError ?? "")"
        case .suppressed: "<span class=\"status status-cancelled\">Not sent</span> \(message.lastError ?? "")"
        }
    }
}

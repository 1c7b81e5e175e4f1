import Foundation

/// How this instance sends mail (README, *Messages*), from the environment.
///
/// Without `FULFILMENT_SMTP_URL` nothing is sent: messages are kept in the outbox, and managers
/// and admins read them in the console's Mail page (the embedded default of `make run`).
package struct MailSettings: Sendable {
    /// The submission server (`FULFILMENT_SMTP_URL`, with `FULFILMENT_SMTP_PASSWORD_FILE` and
    /// `FULFILMENT_SMTP_CA_FILE`); nil keeps messages unsent.
    package var smtp: SMTPSettings?
    /// The sender (`FULFILMENT_MAIL_FROM`, `Name <address>` or an address); a store's name
    /// replaces the display name on its own messages.
    package var from = MailMessage.Address("no-reply@localhost", name: nil)
    /// Where links in messages point (`FULFILMENT_PUBLIC_URL`); the listening address when unset.
    package var publicURL: String?
    /// The pause after each failed attempt that may succeed later (a 4xx, a dropped connection,
    /// a server down): `FULFILMENT_MAIL_RETRY_SCHEDULE`, seconds, comma-separated. About a day in
    /// all by default, so a mail server down for hours loses nothing; after the last, `failed`.
    package var retrySchedule: [Duration] = [30, 60, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 43_200].map { .seconds($0) }
    /// How long a claimed message is reserved for the instance that claimed it
    /// (`FULFILMENT_MAIL_LEASE_SECONDS`, default 120): longer than a send can take.
    package var lease: Duration = .seconds(120)
    /// How often each instance looks for messages coming due (`FULFILMENT_MAIL_POLL_MS`, default
    /// 5000); a new message wakes it at once (the `fulfilment_mail` notification).
    package var pollInterval: Duration = .milliseconds(5000)
    /// The most messages one instance sends at once.
    package var concurrency = 4
    /// How long the sender gathers wake-ups before it claims: a burst of commits (16 checkouts
    /// at once) is one claim of many messages, not one claim each (`mail-bench`).
    package var gather: Duration = .milliseconds(100)
    /// A fault hook for the kill -9 test only (`FULFILMENT_MAIL_RECORD_DELAY_MS`): a pause
    /// between the server accepting a message and recording it. Never set it in production.
    package var recordDelay: Duration = .zero

    package init() {}

    package static func from(environment: [String: String]) throws -> MailSettings {
        var settings = MailSettings()
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let url = value("FULFILMENT_SMTP_URL") {
            do {
                settings.smtp = try SMTPSettings(
                    url: url, passwordFile: value("FULFILMENT_SMTP_PASSWORD_FILE"), caFile: value("FULFILMENT_SMTP_CA_FILE"))
            } catch {
                throw ConfigurationError("FULFILMENT_SMTP_URL: \(error.description)")
            }
        }
        if let from = value("FULFILMENT_MAIL_FROM") {
            guard let address = Self.address(from) else {
                throw ConfigurationError("FULFILMENT_MAIL_FROM: \(from) is not an address (orders@example.com or Shop <orders@example.com>)")
            }
            settings.from = address
        } else if settings.smtp != nil {
            throw ConfigurationError("FULFILMENT_MAIL_FROM is needed with FULFILMENT_SMTP_URL: the address messages come from")
        }
        settings.publicURL = value("FULFILMENT_PUBLIC_URL").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if let text = value("FULFILMENT_MAIL_RETRY_SCHEDULE"), let schedule = WebhookDispatchSettings.schedule(text) {
            settings.retrySchedule = schedule
        }
        if let seconds = value("FULFILMENT_MAIL_LEASE_SECONDS").flatMap(Int.init) { settings.lease = .seconds(min(max(seconds, 1), 3600)) }
        if let ms = value("FULFILMENT_MAIL_POLL_MS").flatMap(Int.init) { settings.pollInterval = .milliseconds(min(max(ms, 10), 60_000)) }
        if let ms = value("FULFILMENT_MAIL_RECORD_DELAY_MS").flatMap(Int.init), ms >= 0 {
            settings.recordDelay = .milliseconds(min(ms, 600_000))
        }
        return settings
    }

    /// `orders@example.com` or `Shop <orders@example.com>`; nil for anything else.
    package static func address(_ text: String) -> MailMessage.Address? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var name: String?
        var email = trimmed
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            name = trimmed[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            email = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, email.utf8.count <= 254,
            !email.contains(where: { $0.isWhitespace || "<>,;\"".contains($0) })
        else { return nil }
        return MailMessage.Address(email, name: name?.isEmpty == false ? name : nil)
    }

    /// The pause after failed attempt number `attempt` (1-based), with jitter; nil when retries ran out.
    package func pause(afterAttempt attempt: Int) -> Duration? {
        guard attempt >= 1, attempt <= retrySchedule.count else { return nil }
        return retrySchedule[attempt - 1] * Double.random(in: 0.8...1.2)
    }
}

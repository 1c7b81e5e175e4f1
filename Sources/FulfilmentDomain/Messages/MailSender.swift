import Foundation
import Logging
import ServiceLifecycle

/// Sends due messages: claim what there is room for (committed, leased), render and send each on
/// its own, record each outcome. Exactly once per moment in the ordinary case; after a crash
/// between the server's acceptance and the record, at most that one message again, with the same
/// `Message-ID` (`MessageQueries.claim`).
package struct MailSender: Sendable {
    package let mail: Mail
    package let transport: SMTPTransport

    package init(mail: Mail, transport: SMTPTransport) {
        self.mail = mail
        self.transport = transport
    }

    package func claim(room: Int, logger: Logger) async throws -> [MessageRecord] {
        try await MessageQueries.claim(limit: room, lease: mail.settings.lease, on: mail.database.client, logger: logger)
    }

    /// Renders, sends and records one claimed message. A failure to record leaves it claimed: it
    /// is sent again after its lease (at least once).
    package func send(_ message: MessageRecord, logger: Logger) async {
        let metadata: Logger.Metadata = ["message": "\(message.id)", "kind": "\(message.kind.rawValue)", "attempt": "\(message.attempts)"]
        let outcome: SMTPOutcome
        do {
            let (composed, _) = try await mail.compose(message, logger: logger)
            outcome = try await transport.send(from: mail.settings.from.email, to: [message.recipient], message: composed.rendered())
        } catch {
            // Not rendered (the database away) or not handed to libcurl: tried again on the schedule.
            outcome = .transient(SMTPFailure(code: nil, reply: "", detail: "not sent: \(String(describing: error).prefix(300))"))
        }
        guard !Task.isCancelled else { return }
        if mail.settings.recordDelay > .zero { try? await Task.sleep(for: mail.settings.recordDelay) }
        do {
            switch outcome {
            case .accepted:
                try await MessageQueries.recordSent(message.id, on: mail.database.client, logger: logger)
                logger.debug("message sent", metadata: metadata)
            case .transient(let failure):
                let pause = mail.settings.pause(afterAttempt: message.attempts)
                try await mail.database.transaction(logger: logger) { connection in
                    try await MessageQueries.recordFailure(
                        message, error: failure.description, pause: pause, bounced: false, on: connection, logger: logger)
                }
                logger.info(
                    pause == nil ? "message not sent; retries ran out" : "message not sent; will retry",
                    metadata: metadata.merging(["reply": "\(failure.description.prefix(200))"]) { $1 })
            case .permanent(let failure):
                try await mail.database.transaction(logger: logger) { connection in
                    try await MessageQueries.recordFailure(
                        message, error: failure.description, pause: nil, bounced: Self.namesMailbox(failure), on: connection, logger: logger)
                }
                logger.info("message refused for good", metadata: metadata.merging(["reply": "\(failure.description.prefix(200))"]) { $1 })
            }
        } catch {
            logger.warning(
                "message outcome not recorded; it will be sent again",
                metadata: metadata.merging(["error": "\(String(reflecting: error).prefix(200))"]) { $1 })
        }
    }

    /// A permanent refusal of the mailbox itself (RFC 5321: 550 unavailable, 551 not local, 553
    /// name not allowed): the address bounced, unlike a 554 for the message or a 535 for us.
    package static func namesMailbox(_ failure: SMTPFailure) -> Bool { [550, 551, 553].contains(failure.code ?? 0) }
}

/// Runs the mail sender on this instance (every instance with a mail server runs one) until the
/// service shuts down: it claims when a commit queued mail (`EventBus`), every `pollInterval`,
/// and whenever a send ends. Without a mail server configured it sends nothing: messages wait in
/// the outbox, readable in the console's Mail page, and the log says so once, at start.
package struct MailSenderService: Service {
    package let mail: Mail
    package let bus: EventBus
    package let logger: Logger

    package init(mail: Mail, bus: EventBus, logger: Logger) {
        self.mail = mail
        self.bus = bus
        self.logger = logger
    }

    package func run() async throws {
        guard let smtp = mail.settings.smtp else {
            logger.notice(
                "no mail server configured (FULFILMENT_SMTP_URL): messages are kept, not sent; managers read them in the console under Mail")
            try? await gracefulShutdown()
            return
        }
        logger.info("sending mail", metadata: ["server": "\(smtp)", "from": "\(mail.settings.from.email)"])
        let sender = MailSender(mail: mail, transport: SMTPTransport(settings: smtp))
        let settings = mail.settings
        // Commits' wake-ups are gathered for a moment, so a burst of checkouts is one claim of
        // many messages; a send that ends claims at once.
        await cancelWhenGracefulShutdown {
            await ClaimLoop.run(
                concurrency: settings.concurrency, pollInterval: settings.pollInterval, wakes: bus.subscribeToMail(),
                gather: settings.gather,
                claim: { room in try await sender.claim(room: room, logger: logger) },
                claimFailed: { error in
                    logger.warning("mail claim failed; trying again next time", metadata: ["error": "\(String(reflecting: error).prefix(200))"])
                },
                handle: { message in await sender.send(message, logger: logger) })
        }
    }
}

import Foundation
import Logging
import PostgresNIO

/// The SQL of the mail outbox: the sender's claim and records, and what staff read.
package enum MessageQueries {
    /// Claims up to `limit` due messages in one short transaction of its own: each is moved
    /// `lease` into the future and its attempt counted before anything is sent. `SKIP LOCKED`
    /// lets instances claim side by side; a claimed row is not due again until its lease runs
    /// out, so two instances never send the same message at once, and a crash after sending means
    /// at most that message is sent again, with the same `Message-ID`.
    package static func claim(limit: Int, lease: Duration, on client: PostgresClient, logger: Logger) async throws -> [MessageRecord] {
        let rows = try await client.run(
            """
            UPDATE messages m SET next_attempt_at = now() + \(lease.inSeconds) * interval '1 second',
                                  attempts = m.attempts + 1, last_attempt_at = now()
            WHERE m.id IN (SELECT d.id FROM messages d WHERE d.status = 'pending' AND d.next_attempt_at <= now()
                           ORDER BY d.next_attempt_at, d.id LIMIT \(Int32(clamping: limit)) FOR UPDATE SKIP LOCKED)
              AND m.status = 'pending'
            RETURNING \(unescaped: columns)
            """, logger: logger)
        return try await decode(rows)
    }

    /// The server took it: sent, whichever attempt it was.
    package static func recordSent(_ id: MessageID, on client: PostgresClient, logger: Logger) async throws {
        try await client.run(
            "UPDATE messages SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = \(id.rawValue) AND status = 'pending'",
            logger: logger)
    }

    /// A failure of this attempt: due again after `pause`, or `failed` without one. A refusal
    /// that names the mailbox (`bounced`) flags the address, so it is not mailed again until
    /// the account's address changes.
    package static func recordFailure(
        _ message: MessageRecord, error: String, pause: Duration?, bounced: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let text = String(error.prefix(1000))
        if let pause {
            try await connection.run(
                """
                UPDATE messages SET last_error = \(text), next_attempt_at = now() + \(pause.inSeconds) * interval '1 second'
                WHERE id = \(message.id.rawValue) AND status = 'pending' AND attempts = \(Int32(clamping: message.attempts))
                """, logger: logger)
        } else {
            try await connection.run(
                "UPDATE messages SET status = 'failed', last_error = \(text) WHERE id = \(message.id.rawValue) AND status = 'pending'",
                logger: logger)
        }
        if bounced {
            try await connection.run(
                """
                INSERT INTO bounced_addresses (address_key, reply) VALUES (lower(\(message.recipient)), \(text))
                ON CONFLICT (address_key) DO UPDATE SET bounced_at = now(), reply = EXCLUDED.reply
                """, logger: logger)
        }
    }

    /// One message within `scope`: a store's for its manager, any for the chain's admin (an
    /// account's own messages, which belong to no store, only for the admin).
    package static func message(_ id: MessageID, in scope: StoreScope, on client: PostgresClient, logger: Logger) async throws -> MessageRecord? {
        let rows = try await client.run(
            "SELECT \(unescaped: columns) FROM messages m WHERE m.id = \(id.rawValue) AND \(scope, column: "m.store_id")", logger: logger)
        return try await decode(rows).first
    }

    /// The messages of an order, oldest first (what its page shows).
    package static func messages(of order: OrderID, on client: PostgresClient, logger: Logger) async throws -> [MessageRecord] {
        let rows = try await client.run(
            "SELECT \(unescaped: columns) FROM messages m WHERE m.order_id = \(order.rawValue) ORDER BY m.created_at, m.id LIMIT 200",
            logger: logger)
        return try await decode(rows)
    }

    /// The newest messages within `scope`, a page at a time.
    package static func newest(
        in scope: StoreScope, after: PageCursor.Dated?, limit: Int, on client: PostgresClient, logger: Logger
    ) async throws -> Page<MessageRecord> {
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns), (extract(epoch FROM m.created_at) * 1000000)::int8 AS created_micros
            FROM messages m
            WHERE \(scope, column: "m.store_id")
              AND (\(after == nil) OR ((extract(epoch FROM m.created_at) * 1000000)::int8, m.id) < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY m.created_at DESC, m.id DESC
            LIMIT \(Int32(clamping: limit + 1))
            """, logger: logger)
        var items: [(MessageRecord, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            items.append((try message(r), try r["created_micros"].decode(Int64.self)))
        }
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    private static let columns = """
        m.id, m.store_id, m.order_id, m.user_id, m.kind, m.moment, m.recipient, m.data::text AS data_json, m.status, m.attempts,
        m.next_attempt_at, m.last_attempt_at, m.sent_at, m.last_error, m.created_at
        """

    private static func decode(_ rows: SQLRows) async throws -> [MessageRecord] {
        var found: [MessageRecord] = []
        for try await row in rows { found.append(try message(row.makeRandomAccess())) }
        return found
    }

    private static func message(_ r: PostgresRandomAccessRow) throws -> MessageRecord {
        let status = try r["status"].stored(MessageStatus.self)
        let json = try r["data_json"].decode(String.self)
        let data = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))) ?? [:]
        return MessageRecord(
            id: MessageID(try r["id"].decode(UUID.self)), storeID: try r["store_id"].decode(UUID?.self).map(StoreID.init),
            orderID: try r["order_id"].decode(UUID?.self).map(OrderID.init), userID: try r["user_id"].decode(UUID?.self).map(UserID.init),
            kind: try r["kind"].stored(MessageKind.self), moment: try r["moment"].decode(String.self),
            recipient: try r["recipient"].decode(String.self), data: data, status: status,
            attempts: Int(try r["attempts"].decode(Int32.self)),
            nextAttemptAt: status == .pending ? try r["next_attempt_at"].decode(Date.self) : nil,
            lastAttemptAt: try r["last_attempt_at"].decode(Date?.self), sentAt: try r["sent_at"].decode(Date?.self),
            lastError: try r["last_error"].decode(String?.self), createdAt: try r["created_at"].decode(Date.self))
    }
}

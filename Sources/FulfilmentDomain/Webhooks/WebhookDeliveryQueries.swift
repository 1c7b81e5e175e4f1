import Foundation
import Logging
import PostgresNIO

/// The SQL of deliveries: the dispatcher's claim and records, and what managers read and redo.
package enum WebhookDeliveryQueries {
    /// Claims up to `limit` due deliveries of enabled endpoints in one short transaction of its
    /// own: each is moved `lease` into the future and its attempt counted **before** anything is
    /// sent. `SKIP LOCKED` lets instances claim side by side without waiting on each other, and a
    /// claimed row is not due again until its lease runs out, so two instances never send the
    /// same attempt at once; a crash after sending only means it is sent again after the lease,
    /// with the same `webhook-id`. The statement is `claim_webhook_deliveries` (`sql/routines/claim_webhook_deliveries.sql`).
    ///
    /// Each secret is opened here (`WebhookSecrets`, with the data keys in scope), so a claimed
    /// delivery carries it plain to the sender and nowhere else. A delivery whose secret does not
    /// open is left out: it stays pending, due again after its lease, with the reason as its
    /// `lastError` (no key material in it) and in the log.
    package static func claim(
        limit: Int, lease: Duration, perEndpoint: Int, on client: PostgresClient, logger: Logger
    ) async throws -> [ClaimedDelivery] {
        // At most `perEndpoint` in flight to one endpoint, over every instance (`claim_webhook_deliveries`).
        let rows = try await client.run(
            """
            SELECT * FROM claim_webhook_deliveries(\(Int32(clamping: limit)), \(lease.inSeconds), \(Int32(clamping: perEndpoint)))
            """, logger: logger)
        var claimed: [ClaimedDelivery] = []
        var unopened: [(WebhookDeliveryID, WebhookSecretError)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let id = WebhookDeliveryID(try r["id"].decode(UUID.self))
            let endpoint = WebhookEndpointID(try r["endpoint_id"].decode(UUID.self))
            let plain = try r["secret"].decode(String?.self)
            var secret = plain ?? ""
            if plain == nil {
                let sealed = try r["secret_sealed"].decode(Data?.self) ?? Data()
                let keyID = Int(try r["secret_key_id"].decode(Int32?.self) ?? 0)
                do {
                    secret = try WebhookSecrets.open(sealed, keyID: keyID, endpoint: endpoint, keys: WebhookSecrets.keys)
                } catch {
                    unopened.append((id, error))
                    continue
                }
            }
            claimed.append(
                ClaimedDelivery(
                    id: id, endpoint: endpoint, eventID: EventID(try r["event_id"].decode(UUID.self)),
                    attempt: Int(try r["attempts"].decode(Int32.self)), url: try r["url"].decode(String.self), secret: secret,
                    body: try r["body"].decode(String.self)))
        }
        for (id, error) in unopened {
            logger.error("webhook secret not decrypted; the delivery waits", metadata: ["delivery": "\(id)", "reason": "\(error)"])
            try await client.run(
                "UPDATE webhook_deliveries SET last_error = \(error.description) WHERE id = \(id.rawValue) AND status = 'pending'",
                logger: logger)
        }
        return claimed
    }

    /// Records a success: the delivery is done (whichever attempt it was, even one whose lease
    /// ran out meanwhile), and the endpoint is no longer failing.
    package static func recordSuccess(
        _ delivery: ClaimedDelivery, code: Int, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            UPDATE webhook_deliveries SET status = 'succeeded', last_response_code = \(code), last_error = NULL
            WHERE id = \(delivery.id.rawValue) AND status = 'pending'
            """, logger: logger)
        try await connection.run(
            "UPDATE webhook_endpoints SET failing_since = NULL WHERE id = \(delivery.endpoint.rawValue) AND failing_since IS NOT NULL",
            logger: logger)
    }

    /// Records a failure of this very attempt (a later attempt, after a lost lease, owns the row
    /// instead): due again after `pause`, or `failed` when there is none. The endpoint is marked
    /// failing from its first failure since a success; failing for longer than `disableAfter`,
    /// it is disabled with a reason its managers can read. Returns whether it was disabled now.
    package static func recordFailure(
        _ delivery: ClaimedDelivery, code: Int?, error: String, pause: Duration?, disableAfter: Duration,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        try await connection.run(
            """
            UPDATE webhook_deliveries
            SET status = CASE WHEN \(pause == nil) THEN 'failed' ELSE 'pending' END,
                next_attempt_at = now() + \(pause?.inSeconds ?? 0) * interval '1 second',
                last_response_code = \(code), last_error = \(error)
            WHERE id = \(delivery.id.rawValue) AND status = 'pending' AND attempts = \(delivery.attempt)
            """, logger: logger)
        let rows = try await connection.run(
            """
            WITH judged AS (
                SELECT id, coalesce(failing_since, now()) AS since,
                       enabled AND coalesce(failing_since, now()) <= now() - \(disableAfter.inSeconds) * interval '1 second' AS disable
                FROM webhook_endpoints WHERE id = \(delivery.endpoint.rawValue) FOR UPDATE)
            UPDATE webhook_endpoints w SET
                failing_since = j.since,
                enabled = w.enabled AND NOT j.disable,
                disabled_reason = CASE WHEN j.disable
                    THEN 'Disabled by the dispatcher: every delivery attempt has failed since ' || api_time(j.since)
                         || ' (the last: ' || \(error) || '). Fix the endpoint, then enable it again.'
                    ELSE w.disabled_reason END,
                updated_at = CASE WHEN j.disable THEN now() ELSE w.updated_at END
            FROM judged j WHERE w.id = j.id
            RETURNING j.disable
            """, logger: logger)
        for try await disabled in rows.decode(Bool.self) { return disabled }
        return false
    }

    /// An endpoint's deliveries, newest first.
    package static func list(
        endpoint: WebhookEndpointID, limit: Int, cursor: String?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<WebhookDelivery> {
        let after = try PageCursor.decode(cursor, as: PageCursor.Dated.self)
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns)
            FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.endpoint_id = \(endpoint.rawValue)
              AND (\(after == nil) OR ((extract(epoch FROM d.created_at) * 1000000)::int8, d.id)
                                      < (\(after?.t ?? 0), \(after?.id ?? UUID())))
            ORDER BY d.created_at DESC, d.id DESC
            LIMIT \(limit + 1)
            """, logger: logger)
        let items = try await decode(rows)
        let page = Array(items.prefix(limit))
        let next = items.count > limit ? page.last.map { PageCursor.encode(PageCursor.Dated(t: $0.1, id: $0.0.id.rawValue)) } : nil
        return Page(items: page.map(\.0), nextCursor: next)
    }

    /// Makes a finished delivery of `endpoint` pending and due now (its event, and so its
    /// `webhook-id`, unchanged). A pending one is left alone: it may be in flight this moment.
    package static func redeliver(
        _ id: WebhookDeliveryID, endpoint: WebhookEndpointID, on connection: PostgresConnection, logger: Logger
    ) async throws -> (WebhookDelivery, wasPending: Bool)? {
        let current = try await connection.run(
            """
            SELECT d.status FROM webhook_deliveries d
            WHERE d.id = \(id.rawValue) AND d.endpoint_id = \(endpoint.rawValue) FOR UPDATE
            """, logger: logger)
        var status: WebhookDelivery.Status?
        for try await row in current { status = try row.makeRandomAccess()["status"].stored(WebhookDelivery.Status.self) }
        guard let status else { return nil }
        if status != .pending {
            try await connection.run(
                "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() WHERE id = \(id.rawValue)",
                logger: logger)
        }
        let rows = try await connection.run(
            """
            SELECT \(unescaped: columns) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.id = \(id.rawValue)
            """, logger: logger)
        guard let delivery = try await decode(rows).first?.0 else { return nil }
        return (delivery, status == .pending)
    }

    /// The columns ``decode(_:)`` reads, over `webhook_deliveries d JOIN events e`.
    private static let columns = """
        d.id, d.event_id, e.type AS event_type, d.status, d.attempts, d.last_response_code, d.last_error, d.last_attempt_at,
        d.next_attempt_at, d.created_at, (extract(epoch FROM d.created_at) * 1000000)::int8 AS created_micros
        """

    private static func decode(_ rows: SQLRows) async throws -> [(WebhookDelivery, Int64)] {
        var found: [(WebhookDelivery, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            let status = try r["status"].stored(WebhookDelivery.Status.self)
            let next = try r["next_attempt_at"].decode(Date.self)
            found.append(
                (
                    WebhookDelivery(
                        id: WebhookDeliveryID(try r["id"].decode(UUID.self)), eventID: EventID(try r["event_id"].decode(UUID.self)),
                        eventType: try r["event_type"].decode(String.self), status: status, attempts: Int(try r["attempts"].decode(Int32.self)),
                        lastResponseCode: try r["last_response_code"].decode(Int32?.self).map(Int.init),
                        lastError: try r["last_error"].decode(String?.self), lastAttemptAt: try r["last_attempt_at"].decode(Date?.self),
                        nextAttemptAt: status == .pending ? next : nil,
                        createdAt: try r["created_at"].decode(Date.self)), try r["created_micros"].decode(Int64.self)
                ))
        }
        return found
    }
}

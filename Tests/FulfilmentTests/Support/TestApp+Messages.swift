import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

extension TestApp {
    /// A password reset or email change of `user` straight in the database, as the service makes
    /// one (its link token an HMAC under the process's data key, only its SHA-256 stored); returns
    /// the link's token.
    func linkRow(_ purpose: LinkToken.Purpose, for user: String, expiresIn seconds: Int = 1800) async throws -> String {
        let id = UUID()
        let key = DataKeyring.processWide.current
        let token = LinkToken.make(purpose, id: id, key: key)
        let hash = "\\x" + LinkToken.hash(token).map { String(format: "%02x", $0) }.joined()
        switch purpose {
        case .passwordReset:
            _ = try await sql(
                """
                INSERT INTO password_resets (id, user_id, token_hash, key_id, expires_at)
                VALUES ($1, $2, $3::bytea, $4, now() + $5::int * interval '1 second')
                """, [id.uuidString, user, hash, String(key.id), String(seconds)], on: database)
        case .emailChange:
            _ = try await sql(
                """
                INSERT INTO email_changes (id, user_id, new_email, token_hash, key_id, expires_at)
                VALUES ($1, $2, $3, $4::bytea, $5, now() + $6::int * interval '1 second')
                """, [id.uuidString, user, "changed-\(id.uuidString.prefix(8))@example.com", hash, String(key.id), String(seconds)],
                on: database)
        case .unsubscribe:
            break
        }
        return token
    }

    /// The outbox's messages of `kind`, oldest first: (status, recipient, attempts, last error, id).
    func messages(_ kind: MessageKind? = nil, order: String? = nil) async throws -> [(
        status: String, recipient: String, attempts: Int, error: String?, id: String
    )] {
        try await sql(
            """
            SELECT status, recipient, attempts, last_error, id FROM messages
            WHERE ($1 = '' OR kind = $1) AND ($2 = '' OR order_id::text = $2) ORDER BY created_at, id
            """, [kind?.rawValue ?? "", order ?? ""], on: database
        ).map { ($0[0]!, $0[1]!, Int($0[2]!)!, $0[3], $0[4]!) }
    }

    /// Waits until every message is settled (none pending), up to `seconds`.
    func waitForMail(settled count: Int, seconds: Double = 20) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let rows = try await sql("SELECT count(*) FILTER (WHERE status <> 'pending') FROM messages", on: database)
            if Int(rows[0][0]!)! >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

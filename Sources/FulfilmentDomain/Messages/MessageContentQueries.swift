import Foundation
import Logging
import PostgresNIO

/// The SQL a message's content is read with when it is rendered (`Mail.content(of:)`).
package enum MessageContentQueries {
    /// The store's name, address, logo and calendar (its zone and hours), in one statement; nil
    /// when there is no such store.
    package static func store(_ id: StoreID, on client: PostgresClient, logger: Logger) async throws -> MessageContent.Store? {
        let rows = try await client.run(
            """
            SELECT s.name, s.address, s.logo_url, k.*
            FROM stores s LEFT JOIN LATERAL store_calendar(s.id) k ON true WHERE s.id = \(id.rawValue)
            """, logger: logger)
        for try await row in rows { return try store(row.makeRandomAccess()) }
        return nil
    }

    private static func store(_ r: PostgresRandomAccessRow) throws -> MessageContent.Store {
        let calendar = try CalendarQueries.calendar(in: r, from: 3)
        return MessageContent.Store(
            name: try r["name"].decode(String.self), address: try r["address"].decode(String.self),
            logoURL: try r["logo_url"].decode(String?.self), timeZone: calendar?.timeZone, hours: calendar?.hours ?? [])
    }

    /// The account's name now ("" for an account that is gone).
    package static func name(of user: UserID, on client: PostgresClient, logger: Logger) async throws -> String {
        let rows = try await client.run("SELECT u.name FROM users u WHERE u.id = \(user.rawValue)", logger: logger)
        for try await name in rows.decode(String.self) { return name }
        return ""
    }

    /// The data key a reset's or an email change's link token was made under; nil when the row is gone.
    package static func linkKey(_ purpose: LinkToken.Purpose, id: UUID, on client: PostgresClient, logger: Logger) async throws -> Int? {
        let rows =
            switch purpose {
            case .passwordReset: try await client.run("SELECT key_id FROM password_resets WHERE id = \(id)", logger: logger)
            case .emailChange: try await client.run("SELECT key_id FROM email_changes WHERE id = \(id)", logger: logger)
            case .unsubscribe: try await client.run("SELECT NULL::int4 AS key_id WHERE false", logger: logger)
            }
        for try await key in rows.decode(Int32.self) { return Int(key) }
        return nil
    }
}

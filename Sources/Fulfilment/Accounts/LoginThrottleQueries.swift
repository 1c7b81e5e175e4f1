import Logging
import PostgresNIO

/// The SQL of `login_throttle`: reserve an attempt before the password is checked, give it
/// back when it turns out not to be a failure.
enum LoginThrottleQueries {
    /// Counts one attempt against the address, the account and both, all or none, in one
    /// transaction. Each key's row is upserted with a condition (its window has ended, or it
    /// is below its limit), so concurrent attempts queue on the row lock and the limit-th + 1
    /// finds it full: parallel guesses cannot exceed a limit. Throws `AccountError.throttled`
    /// with the seconds until the fullest key's window ends when any key is full.
    static func reserve(emailKey: String, address: String, rules: LoginThrottle, database: Database, logger: Logger) async throws {
        try await database.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO login_throttle AS t (email_key, address, failures, window_started_at)
                VALUES ('', \(address), 1, now()), (\(emailKey), '', 1, now()), (\(emailKey), \(address), 1, now())
                ON CONFLICT (email_key, address) DO UPDATE SET
                    failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => \(rules.windowSeconds))
                        THEN 1 ELSE t.failures + 1 END,
                    window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => \(rules.windowSeconds))
                        THEN now() ELSE t.window_started_at END
                WHERE t.window_started_at <= now() - make_interval(secs => \(rules.windowSeconds))
                    OR t.failures < CASE
                        WHEN t.email_key = '' THEN \(rules.perAddress)
                        WHEN t.address = '' THEN \(rules.perAccount)
                        ELSE \(rules.perAccountAndAddress) END
                RETURNING 1
                """, logger: logger)
            var counted = 0
            for try await _ in rows { counted += 1 }
            if counted == 3 { return }
            // A key is full: say how long until the last full key's window ends; throwing
            // rolls back the keys this attempt did count.
            let wait = try await connection.query(
                """
                SELECT ceil(extract(epoch FROM max(window_started_at) + make_interval(secs => \(rules.windowSeconds)) - now()))::int
                FROM login_throttle
                WHERE (email_key, address) IN (('', \(address)), (\(emailKey), ''), (\(emailKey), \(address)))
                    AND window_started_at > now() - make_interval(secs => \(rules.windowSeconds))
                    AND failures >= CASE
                        WHEN email_key = '' THEN \(rules.perAddress)
                        WHEN address = '' THEN \(rules.perAccount)
                        ELSE \(rules.perAccountAndAddress) END
                """, logger: logger)
            var seconds = 1
            for try await value in wait.decode(Int?.self) { seconds = max(value ?? 1, 1) }
            throw AccountError.throttled(retryAfterSeconds: seconds)
        }
    }

    /// The password was right: the attempt was not a failure. The account-from-this-address
    /// count starts again (the user is back at their own till); the address and account
    /// counts only lose this attempt, so signing in to one's own account between guesses at
    /// another's does not wipe the guesses.
    static func succeeded(emailKey: String, address: String, logger: Logger, on client: PostgresClient) async throws {
        try await client.query(
            """
            WITH cleared AS (DELETE FROM login_throttle WHERE email_key = \(emailKey) AND address = \(address))
            UPDATE login_throttle SET failures = failures - 1
            WHERE (email_key, address) IN (('', \(address)), (\(emailKey), '')) AND failures > 0
            """, logger: logger)
    }

    /// The attempt never reached the password check (the bcrypt queue was full, the database
    /// failed): give every key its reservation back.
    static func refund(emailKey: String, address: String, logger: Logger, on client: PostgresClient) async throws {
        try await client.query(
            """
            UPDATE login_throttle SET failures = failures - 1
            WHERE (email_key, address) IN (('', \(address)), (\(emailKey), ''), (\(emailKey), \(address))) AND failures > 0
            """, logger: logger)
    }
}

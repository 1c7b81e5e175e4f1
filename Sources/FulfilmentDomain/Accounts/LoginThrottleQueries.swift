import Logging
import PostgresNIO

/// The SQL of `login_throttle`: reserve an attempt before the password is checked, then
/// settle it as a failure, a success, or an attempt that never happened.
///
/// Every statement touches the three keys in the order `LoginThrottle.keys` lists them
/// (address, account, both), each in its own statement inside one transaction, so two
/// attempts never wait for each other's rows in a cycle.
package enum LoginThrottleQueries {
    /// How a reserved attempt ended.
    package enum Outcome {
        /// A wrong password: the reservation becomes a failure on every key.
        case failed
        /// The right password: the reservation is given back, and the account's count from
        /// this address starts again (the user is back at their own till). The address and
        /// account counts keep their failures, so signing in to one's own account between
        /// guesses at another's wipes nothing.
        case succeeded
        /// The password was never checked (the bcrypt queue was full, the database failed).
        case abandoned
    }

    /// Reserves one attempt against the address, the account and both, all or none. Each
    /// key's row is upserted with a condition (its window has ended, or failures plus
    /// attempts in flight are below its limit), so concurrent attempts queue on the row lock
    /// and the one past the limit finds it full: parallel guesses cannot exceed a limit.
    ///
    /// Throws `AccountError.throttled`: with the seconds until the window ends when a key has
    /// its limit in failures, or with 1 second when it is full only of attempts in flight.
    package static func reserve(emailKey: String, address: String, rules: LoginThrottle, database: Database, logger: Logger) async throws {
        let window = rules.windowSeconds
        try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run(
                """
                INSERT INTO login_throttle AS t (email_key, address, failures, pending, window_started_at)
                VALUES ('', \(address), 0, 1, now()), (\(emailKey), '', 0, 1, now()), (\(emailKey), \(address), 0, 1, now())
                ON CONFLICT (email_key, address) DO UPDATE SET
                    failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => \(window)) THEN 0 ELSE t.failures END,
                    pending = CASE WHEN t.window_started_at <= now() - make_interval(secs => \(window)) THEN 1 ELSE t.pending + 1 END,
                    window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => \(window))
                        THEN now() ELSE t.window_started_at END
                WHERE t.window_started_at <= now() - make_interval(secs => \(window))
                    OR t.failures + t.pending < CASE
                        WHEN t.email_key = '' THEN \(rules.perAddress)
                        WHEN t.address = '' THEN \(rules.perAccount)
                        ELSE \(rules.perAccountAndAddress) END
                RETURNING 1
                """, logger: logger)
            var counted = 0
            for try await _ in rows { counted += 1 }
            if counted == 3 { return }
            // A key is full; throwing rolls back the keys this attempt did count.
            let wait = try await connection.run(
                """
                SELECT ceil(extract(epoch FROM max(window_started_at) + make_interval(secs => \(window)) - now()))::int
                FROM login_throttle
                WHERE (email_key, address) IN (('', \(address)), (\(emailKey), ''), (\(emailKey), \(address)))
                    AND window_started_at > now() - make_interval(secs => \(window))
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

    /// Settles a reservation made by `reserve`.
    package static func settle(
        _ outcome: Outcome, emailKey: String, address: String, rules: LoginThrottle, database: Database, logger: Logger
    ) async throws {
        let window = rules.windowSeconds
        try await database.transaction(logger: logger) { connection in
            for key in LoginThrottle.keys(emailKey: emailKey, address: address) {
                let failures =
                    switch outcome {
                    case .failed: 1
                    case .succeeded, .abandoned: 0
                    }
                // A success starts the account-from-this-address count again.
                let restart = outcome == .succeeded && !key.emailKey.isEmpty && !key.address.isEmpty
                try await connection.run(
                    """
                    UPDATE login_throttle SET
                        pending = greatest(pending - 1, 0),
                        failures = CASE WHEN \(restart) THEN 0 ELSE failures + \(failures) END
                    WHERE email_key = \(key.emailKey) AND address = \(key.address)
                    """, logger: logger)
            }
            // A key with nothing in it says nothing: drop it, so the table keeps only keys
            // with failures (every customer who signs in would otherwise leave rows behind).
            // These rows are already locked by this transaction, so the order is safe.
            try await connection.run(
                """
                DELETE FROM login_throttle
                WHERE (email_key, address) IN (('', \(address)), (\(emailKey), ''), (\(emailKey), \(address)))
                    AND pending = 0 AND (failures = 0 OR window_started_at <= now() - make_interval(secs => \(window)))
                """, logger: logger)
        }
    }
}

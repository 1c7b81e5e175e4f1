/// How many failed sign-ins are allowed, and per what, within one window.
///
/// Counting per account alone let anyone lock a staff member out of their own till by
/// guessing five times. Instead an attempt counts against three keys at once:
/// - the account from this client address (`perAccountAndAddress`, 5): a mistyping user or a
///   guessing attacker is stopped here, without locking the account for anyone else;
/// - the client address, whatever the account (`perAddress`, 20): one address cannot spray
///   guesses across many accounts;
/// - the account, from anywhere (`perAccount`, 50): a ceiling for guessing spread over many
///   addresses, high enough that one address (5 per account) cannot reach it alone.
/// An attempt counts from before its password is checked, so a key is full when its failures
/// plus the attempts still being checked reach its limit. A key full of failures refuses
/// further attempts (429 with `Retry-After`) until its window, counted from its first
/// attempt, ends (15 minutes); a key full only of attempts in flight asks for one second.
///
/// A store's tills often share one public address, so `perAddress` is deliberately well
/// above what staff typos reach in a quarter of an hour.
public struct LoginThrottle: Sendable, Equatable {
    public var perAccountAndAddress = 5
    public var perAddress = 20
    public var perAccount = 50
    public var windowSeconds = 15 * 60

    public init() {}

    public init(perAccountAndAddress: Int, perAddress: Int, perAccount: Int, windowSeconds: Int = 15 * 60) {
        self.perAccountAndAddress = perAccountAndAddress
        self.perAddress = perAddress
        self.perAccount = perAccount
        self.windowSeconds = windowSeconds
    }

    /// The three keys one attempt counts against. Emails are compared lower-cased and
    /// trimmed, as sign-in compares them.
    package static func keys(emailKey: String, address: String) -> [Key] {
        [Key(emailKey: "", address: address), Key(emailKey: emailKey, address: ""), Key(emailKey: emailKey, address: address)]
    }

    /// One row of `login_throttle`. Locks are always taken in the order `keys` lists them
    /// (address, account, both), so two attempts never wait on each other in a cycle.
    package struct Key: Sendable, Hashable {
        package var emailKey: String
        package var address: String
    }
}

import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing on NIO's blocking thread pool: a hash at cost 12 takes a good part of a
/// second of CPU, which must never stall the threads that serve requests. Every hash waits
/// its turn in `queue`, which refuses work (`AccountError.busy`) once full.
public struct PasswordHasher: Sendable {
    /// 12 in production (0.42 s per hash in a debug build on the build machine); tests use 4.
    public var cost: UInt8
    public let queue: BcryptQueue

    public init(cost: UInt8 = 12, queue: BcryptQueue = BcryptQueue()) {
        precondition((4...31).contains(cost), "bcrypt cost must be 4...31")
        self.cost = cost
        self.queue = queue
    }

    package func hash(_ password: String, lane: BcryptQueue.Lane = .other) async throws -> String {
        let cost = self.cost
        return try await queue.run(lane) {
            try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
        }
    }

    /// Whether `stored` is a bcrypt hash at all (`$2…`); an account made through an identity
    /// provider holds `Accounts.noPassword` instead, as the database's own checks read it.
    package static func isHash(_ stored: String) -> Bool { stored.hasPrefix("$2") }

    package func verify(_ password: String, against hash: String, lane: BcryptQueue.Lane) async throws -> Bool {
        try await queue.run(lane) {
            try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        }
    }
}

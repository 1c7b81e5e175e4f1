import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing on NIO's blocking thread pool: a hash takes a quarter of a second at
/// cost 12, which must never stall the threads that serve requests.
public struct PasswordHasher: Sendable {
    /// 12 in production (about 250 ms on one core of the build machine); tests may lower it.
    public var cost: UInt8

    public init(cost: UInt8 = 12) {
        precondition((4...31).contains(cost), "bcrypt cost must be 4...31")
        self.cost = cost
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}

import Foundation

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A folder of fresh pickup keys and a database of its own, for a test that runs the real
/// `fulfilment serve` process (`ServiceProcess`); both are removed afterwards.
func withKeysAndDatabase(_ body: (URL, ConnectionInfo) async throws -> Void) async throws {
    let keys = URL(fileURLWithPath: "/tmp/fulfilment-keys-\(UInt32.random(in: 0...UInt32.max))")
    _ = try PickupKeys.generate(in: keys)
    defer { try? FileManager.default.removeItem(at: keys) }
    try await withTestDatabase { database in try await body(keys, database) }
}

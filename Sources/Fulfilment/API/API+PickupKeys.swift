import Foundation
import QRReceipt

extension API {
    /// The public half of every key in the keyring, for scanners that verify receipts offline.
    /// Private keys never leave the keyring.
    func listPickupKeys(_ input: Operations.ListPickupKeys.Input) async throws -> Operations.ListPickupKeys.Output {
        let items = keyring.publicKeys.map { key in
            Components.Schemas.PickupKey(keyId: key.id.description, algorithm: .ed25519, publicKey: key.base64)
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
    }
}

extension Components.Schemas.PickupKeyList {
    /// Writes `"nextCursor": null` as the contract requires: the generated (synthesized) encoding
    /// omits nil properties, even required nullable ones (apple/swift-openapi-generator#934).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

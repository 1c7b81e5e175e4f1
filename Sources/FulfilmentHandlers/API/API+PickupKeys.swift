import Foundation
import FulfilmentDomain
import QRReceipt

extension API {
    /// The public half of every key in the keyring, for scanners that verify receipts offline.
    /// Private keys never leave the services.keyring.
    func listPickupKeys(_ input: Operations.ListPickupKeys.Input) async throws -> Operations.ListPickupKeys.Output {
        let items = services.keyring.publicKeys.map { key in
            Components.Schemas.PickupKey(keyId: key.id.description, algorithm: .ed25519, publicKey: key.base64)
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
    }
}

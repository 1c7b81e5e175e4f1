import Foundation
import Logging
import OpenAPIRuntime
import QRReceipt

/// The implementation of the OpenAPI contract (`openapi.yaml`). One extension per route
/// group (`API+Health.swift`, ...); domain rules live in the domain types, SQL in the
/// per-aggregate query files.
struct API: APIProtocol {
    let database: Database
    let migrations: [Migration]
    /// Signs pickup tokens (``PickupKeyring/signer``) and verifies them at collection.
    let keyring: PickupKeyring
    let accounts: Accounts

    var logger: Logger { RequestScope.current.logger }
}

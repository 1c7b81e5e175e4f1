import Foundation
import Logging
import OpenAPIRuntime

/// The implementation of the OpenAPI contract (`openapi.yaml`). One extension per route
/// group (`API+Health.swift`, ...); domain rules live in the domain types, SQL in the
/// per-aggregate query files.
struct API: APIProtocol {
    let database: Database
    let migrations: [Migration]

    var logger: Logger { RequestScope.current.logger }
}

import Foundation
import FulfilmentDomain
import Logging
import OpenAPIRuntime
import QRReceipt

/// The implementation of the OpenAPI contract (`openapi.yaml`). One extension per route
/// group (`API+Health.swift`, ...). A request takes one path: handler (HTTP in and out) → a
/// domain service of ``Services``, built once (rules, the caller's `StoreScope`, transactions,
/// domain errors) → `*Queries` (bound SQL, the only place SQL is written).
package struct API: APIProtocol {
    let services: Services

    /// The API over the domain services the application built once.
    package init(services: Services) { self.services = services }

    var logger: Logger { RequestScope.current.logger }
}

import Foundation
import FulfilmentDomain
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

extension API {
    /// Registers every operation of the contract on `router`, behind `middlewares` (the access
    /// table first). Compact JSON with sorted keys (the same bytes for the same answer): the
    /// generator's default also pretty-prints, whitespace the encoder writes and the wire carries
    /// (issue 15).
    package func register(on router: Router<AppRequestContext>, middlewares: [any ServerMiddleware]) throws {
        try registerHandlers(
            on: router, configuration: .init(dateTranscoder: RFC3339DateTranscoder(), jsonEncodingOptions: [.sortedKeys]),
            middlewares: middlewares)
    }
}

/// The contract this service implements, served as written (`GET /openapi.yaml`), and read by
/// the request-shape check in front of every route.
package enum OpenAPIDocument {
    package static let yaml: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { return Data("openapi: 3.1.0\n".utf8) }
        return data
    }()
}

import HTTPTypes
import Hummingbird
import NIOCore

/// The client address of the current request, as sign-in throttling counts it: the peer's
/// IP address (no port), or `unknown` when there is none (a test router, a Unix socket).
///
/// It is the TCP peer, unless that peer is one of `FULFILMENT_TRUSTED_PROXIES`: then the client
/// its `X-Forwarded-For` names (`TrustedProxies.client`). Anyone else's header is ignored, as
/// anyone could set it to dodge the per-address limit.
package enum ClientAddress {
    @TaskLocal package static var current = "unknown"

    package static func describe(_ address: SocketAddress?) -> String {
        guard let ip = address?.ipAddress, !ip.isEmpty else { return "unknown" }
        // An IPv4 client of a dual-stack listener arrives as ::ffff:a.b.c.d; count it as a.b.c.d.
        if ip.hasPrefix("::ffff:"), ip.contains(".") { return String(ip.dropFirst("::ffff:".count)) }
        return ip
    }
}

/// Makes the client's address available to the OpenAPI handlers (which see no Hummingbird
/// context) as `ClientAddress.current`.
package struct ClientAddressMiddleware: RouterMiddleware {
    package static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    package let trustedProxies: TrustedProxies

    package init(trustedProxies: TrustedProxies) {
        self.trustedProxies = trustedProxies
    }

    package func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let peer = ClientAddress.describe(context.remoteAddress)
        let client = trustedProxies.client(peer: peer, forwardedFor: request.headers[values: Self.forwardedFor])
        return try await ClientAddress.$current.withValue(client) {
            try await next(request, context)
        }
    }
}

import Hummingbird
import NIOCore

/// The client address of the current request, as sign-in throttling counts it: the peer's
/// IP address (no port), or `unknown` when there is none (a test router, a Unix socket).
///
/// It is the TCP peer, never a client-supplied header such as `X-Forwarded-For`, which
/// anyone could set to dodge the per-address limit. Behind a reverse proxy every client has
/// the proxy's address, so the per-address limit then counts the proxy as a whole.
enum ClientAddress {
    @TaskLocal static var current = "unknown"

    static func describe(_ address: SocketAddress?) -> String {
        guard let ip = address?.ipAddress, !ip.isEmpty else { return "unknown" }
        // An IPv4 client of a dual-stack listener arrives as ::ffff:a.b.c.d; count it as a.b.c.d.
        if ip.hasPrefix("::ffff:"), ip.contains(".") { return String(ip.dropFirst("::ffff:".count)) }
        return ip
    }
}

/// Makes the peer's address available to the OpenAPI handlers (which see no Hummingbird
/// context) as `ClientAddress.current`.
struct ClientAddressMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        try await ClientAddress.$current.withValue(ClientAddress.describe(context.remoteAddress)) {
            try await next(request, context)
        }
    }
}

import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the peer's address, which
/// sign-in throttling counts by (`ClientAddress`).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's other end (a proxy's, when behind one).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}

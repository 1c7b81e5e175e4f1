import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// How long a connection may take to send a request's head, or sit idle between requests, and
/// how many connections one client address may hold open (issue 41). Without them, 50
/// connections sending a header byte every 2 s stayed open for as long as they liked.
///
/// The head timeout is Hummingbird's idle timeout: its clock starts when a connection opens
/// and again after every answer, and stops only once a whole request head has been read, so a
/// trickled head and an idle keep-alive connection are both closed when it runs out. A running
/// answer (a live event stream) is never cut by it.
public struct ConnectionLimits: Sendable {
    /// `FULFILMENT_HEADER_TIMEOUT_SECONDS`, default 20, 1 to 600.
    public var headTimeout: Duration
    /// `FULFILMENT_CONNECTIONS_PER_CLIENT`, default 256, 1 to 100,000: the open connections one
    /// address may hold; one more is closed at once. Behind a proxy every connection comes from
    /// the proxy, so raise it there.
    public var perClient: Int

    public init(headTimeout: Duration = .seconds(20), perClient: Int = 256) {
        self.headTimeout = headTimeout
        self.perClient = perClient
    }

    public static func fromEnvironment() -> ConnectionLimits {
        ConnectionLimits(
            headTimeout: .seconds(EnvironmentSetting.integer("FULFILMENT_HEADER_TIMEOUT_SECONDS", clampedTo: 1...600) ?? 20),
            perClient: EnvironmentSetting.integer("FULFILMENT_CONNECTIONS_PER_CLIENT", clampedTo: 1...100_000) ?? 256)
    }

    /// The HTTP/1.1 server with these limits.
    package func server(logger: Logger) -> HTTPServerBuilder {
        let counter = ConnectionCounter(limit: perClient, logger: logger)
        let (seconds, attoseconds) = headTimeout.components
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionAdmission(counter: counter)],
                idleTimeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
    }
}

/// One per connection: counts it against its address when it opens (closing it at once past the
/// limit) and gives the place back when it closes.
package final class ConnectionAdmission: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart

    package let counter: ConnectionCounter
    private var address: String?

    package init(counter: ConnectionCounter) { self.counter = counter }

    package func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if counter.admit(address) {
            self.address = address
        } else {
            counter.logger.notice("connection refused: too many open from one address", metadata: ["limit": "\(counter.limit)"])
            context.close(promise: nil)
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        if let address { counter.release(address) }
        address = nil
    }

    package func channelInactive(context: ChannelHandlerContext) {
        if let address { counter.release(address) }
        address = nil
        context.fireChannelInactive()
    }
}

/// Open connections per client address, shared by every connection of one server.
package final class ConnectionCounter: Sendable {
    package let limit: Int
    package let logger: Logger
    private let open = NIOLockedValueBox([String: Int]())

    package init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Counts a new connection from `address`; false (and not counted) when it would pass the limit.
    package func admit(_ address: String) -> Bool {
        open.withLockedValue { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    package func release(_ address: String) {
        open.withLockedValue { open in
            let count = open[address, default: 0] - 1
            open[address] = count > 0 ? count : nil
        }
    }
}

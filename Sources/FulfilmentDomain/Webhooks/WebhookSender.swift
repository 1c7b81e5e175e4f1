import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends one attempt over HTTP: POST of the event's JSON with the Standard Webhooks headers.
///
/// Where it goes (issue 24): the URL's host is resolved once and every address checked
/// (`WebhookAddress`); the request then goes to a checked address through an `HTTPClient` of
/// its own whose `dnsOverride` maps the host to that address, so the client makes no lookup of
/// its own (a DNS answer changed since the check cannot redirect it) while the `Host` header,
/// the TLS server name and the certificate check still use the host name. When the address
/// cannot be connected to, the next checked one is tried. A refused host is never contacted.
///
/// How long (issue 24): one deadline, `timeout`, for the whole attempt (lookup, connect, head
/// and body), however slowly the receiver sends; redirects are never followed (a 3xx is the
/// endpoint's answer, and a failure: following it would send the payload and its signature
/// somewhere nobody registered). A 2xx is a success as soon as its head arrives; its body is not
/// read. Of any other answer at most `responseLimit` bytes are read, for the excerpt in
/// `last_error`.
package struct WebhookSender: Sendable {
    package let eventLoopGroup: any EventLoopGroup
    package var timeout: Duration
    package var responseLimit: Int
    /// Addresses that are not public are allowed (`WebhookDispatchSettings.allowPrivate`).
    package var allowPrivate: Bool
    /// A host name's addresses (`HostResolver.lookUp` in the service).
    package let lookUp: @Sendable (String) async throws -> [IPAddress]

    /// The configuration of each attempt's client: `host` reaches `address` and nothing else.
    package static func clientConfiguration(timeout: Duration, host: String, address: IPAddress) -> HTTPClient.Configuration {
        let seconds = Int64(max(timeout.inSeconds.rounded(.up), 1))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(min(seconds, 5)), read: .seconds(seconds)),
            decompression: .disabled)
        configuration.dnsOverride = [host: address.description]
        // A refused connection fails at once (the next checked address is tried) instead of
        // being retried against the same address until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    package func send(_ delivery: ClaimedDelivery, now: Date = Date()) async -> DeliveryOutcome {
        let timestamp = Int64(now.timeIntervalSince1970)
        let id = delivery.eventID.description
        guard let signature = WebhookSigning.signature(secret: delivery.secret, id: id, timestamp: timestamp, body: delivery.body.utf8)
        else { return .unreachable("the endpoint's secret is malformed") }
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "fulfilment-webhooks/1")
        request.headers.add(name: "webhook-id", value: id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: signature)
        request.body = .bytes(ByteBuffer(string: delivery.body))
        return await withinDeadline { [request] in await attempt(request) }
    }

    /// `attempt`'s outcome, or "timed out" once `timeout` has passed (the attempt is then
    /// cancelled: the client closes its connection, an abandoned lookup ends on its thread).
    private func withinDeadline(_ attempt: @escaping @Sendable () async -> DeliveryOutcome) async -> DeliveryOutcome {
        await withTaskGroup(of: DeliveryOutcome?.self) { group in
            group.addTask { await attempt() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .unreachable("timed out")
        }
    }

    private func attempt(_ request: HTTPClientRequest) async -> DeliveryOutcome {
        guard let host = WebhookAddress.host(ofURL: request.url) else { return .unreachable("invalid URL") }
        let addresses: [IPAddress]
        do {
            addresses = try await WebhookAddress.addresses(of: host, allowPrivate: allowPrivate, lookUp: lookUp)
        } catch let refusal as WebhookAddress.Refusal {
            return .unreachable(refusal.description)
        } catch {
            return .unreachable("timed out")
        }
        var notConnected = "unreachable"
        for address in addresses {
            let client = HTTPClient(
                eventLoopGroup: eventLoopGroup, configuration: Self.clientConfiguration(timeout: timeout, host: host, address: address))
            let exchanged = await exchange(request, on: client)
            // Shut down even when the attempt was cancelled at its deadline: in the cancelled
            // task the shutdown could end early and leave the receiver's connection open.
            await Task { try? await client.shutdown() }.value
            switch exchanged {
            case .answered(let outcome): return outcome
            case .notConnected(let reason): notConnected = reason
            }
        }
        return .unreachable(notConnected)
    }

    private enum Exchange {
        case answered(DeliveryOutcome)
        /// No connection to this address: the next may do.
        case notConnected(String)
    }

    private func exchange(_ request: HTTPClientRequest, on client: HTTPClient) async -> Exchange {
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.inSeconds * 1e9)))
            let code = Int(response.status.code)
            if (200..<300).contains(code) { return .answered(.succeeded(code: code)) }
            return .answered(.rejected(code: code, excerpt: try await head(of: response.body)))
        } catch {
            if Task.isCancelled { return .answered(.unreachable("timed out")) }
            if Self.isConnectFailure(error) { return .notConnected(Self.describe(error)) }
            return .answered(.unreachable(Self.describe(error)))
        }
    }

    /// The first `responseLimit` bytes of a body, as text; the rest is never read (leaving the
    /// loop early closes the connection).
    private func head(of body: HTTPClientResponse.Body) async throws -> String {
        var collected = ByteBuffer()
        for try await var chunk in body {
            let room = responseLimit - collected.readableBytes
            if let bytes = chunk.readSlice(length: min(room, chunk.readableBytes)) { collected.writeImmutableBuffer(bytes) }
            if collected.readableBytes >= responseLimit { break }
        }
        return String(decoding: collected.readableBytesView, as: UTF8.self)
    }

    /// Whether the error says no connection was made (so nothing was sent).
    package static func isConnectFailure(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if error is NIOConnectionError { return true }
        if let error = error as? IOError { return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode) }
        return false
    }

    /// A short, secret-free account of why there was no response.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) { return "timed out" }
            if [.invalidURL, .emptyHost].contains(error) { return "invalid URL" }
        }
        return String(describing: error).prefix(200).description
    }
}

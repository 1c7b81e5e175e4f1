import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sends one attempt over HTTP: POST of the event's JSON with the Standard Webhooks headers.
///
/// The one `HTTPClient` of the instance is configured never to follow a redirect (a 3xx is the
/// endpoint's answer, and a failure: following it would send the payload and its signature
/// somewhere nobody registered), with connect and read timeouts; the whole attempt has a
/// deadline of `timeout`. Only the first `responseLimit` bytes of a response are read, for the
/// excerpt in `last_error`: an endpoint answering a huge body cannot hold a sender.
struct WebhookSender: Sendable {
    let client: HTTPClient
    var timeout: Duration
    var responseLimit: Int

    /// The client configuration every instance uses.
    static func clientConfiguration(timeout: Duration) -> HTTPClient.Configuration {
        let seconds = Int64(max(timeout.inSeconds, 1))
        return HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(min(seconds, 5)), read: .seconds(seconds)),
            decompression: .disabled)
    }

    func send(_ delivery: ClaimedDelivery, now: Date = Date()) async -> DeliveryOutcome {
        let timestamp = Int64(now.timeIntervalSince1970)
        let id = delivery.eventID.uuidString.lowercased()
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
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.inSeconds * 1e9)))
            let excerpt = try await head(of: response.body)
            let code = Int(response.status.code)
            if (200..<300).contains(code) { return .succeeded(code: code) }
            return .rejected(code: code, excerpt: excerpt)
        } catch {
            return .unreachable(Self.describe(error))
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

    /// A short, secret-free account of why there was no response.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) { return "timed out" }
            if [.invalidURL, .emptyHost].contains(error) { return "invalid URL" }
        }
        return String(describing: error).prefix(200).description
    }
}

import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Webhooks: Standard Webhooks signing, secrets and settings")
struct WebhookSigningTests {
    typealias Vector = WebhookVerifiers.Vector

    @Test("the service's signature of the spec's test vector is the published one")
    func serviceSignsVector() {
        #expect(
            WebhookSigning.signature(secret: Vector.secret, id: Vector.id, timestamp: Vector.timestamp, body: Array(Vector.body.utf8))
                == Vector.signature)
    }

    @Test("standardwebhooks 1.1.0, what partners run, accepts what the service signs, and refuses it once the body is altered")
    func partnersVerifyServiceSignature() async throws {
        let secret = WebhookSigning.newSecret()
        let id = "3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b"
        let timestamp = Int64(Date().timeIntervalSince1970)
        let body = #"{"type":"order.placed","data":{"note":"Ackee & saltfish — 2×, ¡listo!"}}"#
        let signature = try #require(WebhookSigning.signature(secret: secret, id: id, timestamp: timestamp, body: Array(body.utf8)))
        let headers = ["webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature]
        let signed = WebhookReceiver.Hit(path: "/", headers: headers, body: body)
        #expect(try await WebhookVerifiers.verifyWithStandardWebhooks(secret: secret, hit: signed))
        var altered = signed
        altered.body = body.replacingOccurrences(of: "2×", with: "3×")
        #expect(try await !WebhookVerifiers.verifyWithStandardWebhooks(secret: secret, hit: altered))
        #expect(try await !WebhookVerifiers.verifyWithStandardWebhooks(secret: WebhookSigning.newSecret(), hit: signed))
    }

    @Test("a new secret is whsec_ and base64 of 32 random bytes, different every time")
    func secrets() {
        let first = WebhookSigning.newSecret()
        let second = WebhookSigning.newSecret()
        #expect(first != second)
        for secret in [first, second] {
            #expect(secret.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        }
        #expect(WebhookSigning.signature(secret: "not-a-secret", id: "x", timestamp: 1, body: [UInt8]()) == nil)
    }

    @Test("the retry schedule: the default, parsed from the environment, with jitter, and nil once exhausted")
    func schedule() {
        let defaults = WebhookDispatchSettings.from(environment: [:])
        #expect(defaults.retrySchedule == [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map { Duration.seconds($0) })
        #expect(defaults.lease == .seconds(60))
        #expect(defaults.disableAfter == .seconds(432_000))
        #expect(defaults.pollInterval == .milliseconds(5000))
        #expect(defaults.recordDelay == .zero)
        let set = WebhookDispatchSettings.from(environment: [
            "FULFILMENT_WEBHOOK_RETRY_SCHEDULE": "0.5, 2", "FULFILMENT_WEBHOOK_LEASE_SECONDS": "3",
            "FULFILMENT_WEBHOOK_DISABLE_AFTER_SECONDS": "10", "FULFILMENT_WEBHOOK_POLL_MS": "100",
            "FULFILMENT_WEBHOOK_RECORD_DELAY_MS": "20000",
        ])
        #expect(set.retrySchedule == [.milliseconds(500), .seconds(2)])
        #expect(set.lease == .seconds(3))
        #expect(set.disableAfter == .seconds(10))
        #expect(set.pollInterval == .milliseconds(100))
        #expect(set.recordDelay == .seconds(20))
        #expect(
            WebhookDispatchSettings.from(environment: ["FULFILMENT_WEBHOOK_RETRY_SCHEDULE": "5,soon"]).retrySchedule
                == WebhookDispatchSettings.defaultSchedule)
        for _ in 0..<50 {
            let pause = set.pause(afterAttempt: 2)!
            #expect(pause >= .milliseconds(1600) && pause <= .milliseconds(2400))
        }
        #expect(set.pause(afterAttempt: 3) == nil)
    }

    @Test("URLs: http(s) with a host, at most 2000 characters, no spaces or fragment")
    func urls() throws {
        #expect(try WebhookRules.url("https://partner.example/hooks?x=1", allowPrivate: false) == "https://partner.example/hooks?x=1")
        #expect(try WebhookRules.url("http://127.0.0.1:8080/h%20ook", allowPrivate: true) == "http://127.0.0.1:8080/h%20ook")
        for bad in [
            "ftp://partner.example/x", "https://", "partner.example/x", "https://a b/", "https://x/#frag", "javascript:alert(1)",
            "https://x/" + String(repeating: "a", count: 2000),
        ] {
            #expect(throws: WebhookError.invalidURL) { try WebhookRules.url(bad, allowPrivate: true) }
        }
    }
}

import Crypto
import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Two checks of a Standard Webhooks signature that share nothing with the service's code:
/// the PyPI `standardwebhooks` library (what partners run), and a small implementation written
/// here from the spec, which agrees with the library on every delivery `WebhookDeliveryTests` receives.
enum WebhookVerifiers {
    /// The spec's example: https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
    enum Vector {
        static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
        static let timestamp: Int64 = 1_614_265_330
        static let body = #"{"test": 2432232314}"#
        static let signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    }

    /// The spec, read independently: strip `whsec_`, base64-decode the rest as the key, HMAC-SHA256
    /// over `id.timestamp.body`, base64, prefixed `v1,`.
    static func expectedSignature(secret: String, id: String, timestamp: String, body: String) throws -> String {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))) else {
            throw TestSetupError("not a whsec_ secret")
        }
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).\(body)".utf8), using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// Checks a received request with the test's own implementation: one of the space-separated
    /// signatures must be the expected one.
    static func verifyIndependently(secret: String, hit: WebhookReceiver.Hit) throws -> Bool {
        guard let id = hit.headers["webhook-id"], let timestamp = hit.headers["webhook-timestamp"],
            let signatures = hit.headers["webhook-signature"]
        else { return false }
        let expected = try expectedSignature(secret: secret, id: id, timestamp: timestamp, body: hit.body)
        return signatures.split(separator: " ").contains { $0 == expected }
    }

    /// The python of the venv `scripts/install-webhook-verifier` made (`scripts/test` exports it).
    static var python: String {
        get throws {
            guard let path = ProcessInfo.processInfo.environment["WEBHOOK_VERIFIER_PYTHON"], !path.isEmpty else {
                throw TestSetupError("WEBHOOK_VERIFIER_PYTHON is not set: run the tests with scripts/test (it installs standardwebhooks)")
            }
            return path
        }
    }

    /// Runs `standardwebhooks` 1.1.0's `Webhook(secret).verify(body, headers)` on a received
    /// request (secret, headers and body passed in files, byte for byte); true when it accepts.
    static func verifyWithStandardWebhooks(secret: String, hit: WebhookReceiver.Hit) async throws -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(secret.utf8).write(to: folder.appendingPathComponent("secret"))
        try JSONEncoder().encode(hit.headers).write(to: folder.appendingPathComponent("headers.json"))
        try Data(hit.body.utf8).write(to: folder.appendingPathComponent("body"))
        let script = """
            import json, sys
            from standardwebhooks import Webhook
            folder = sys.argv[1]
            secret = open(folder + "/secret").read()
            headers = json.load(open(folder + "/headers.json"))
            body = open(folder + "/body", "rb").read()
            Webhook(secret).verify(body, headers)
            print("verified")
            """
        let outcome = try await Subprocess.run(try python, ["-c", script, folder.path])
        return outcome.status == 0 && outcome.output.contains("verified")
    }
}

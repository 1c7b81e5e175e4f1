import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import _CryptoExtras

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A real OpenID Connect provider for a test: `scripts/oidc-provider/provider.py` (Authlib's
/// authorization server, code flow with PKCE, in the venv `scripts/install-oidc-provider` made;
/// `scripts/test` exports its python), a process on a free loopback port with the clients,
/// people and RSA keys the test gives it. The test holds the provider's keys too, as a thief of
/// them would, to make tokens the provider never issued (expired ones, other claims).
final class LocalIdentityProvider: @unchecked Sendable {
    struct Client: Sendable {
        var id: String
        var secret: String?
        var redirectURIs: [String]
    }

    struct Person: Sendable {
        var username: String
        var password = "provider password"
        var subject: String
        var email: String
        var emailVerified = true
        var name: String
    }

    let port: Int
    let folder: URL
    let clients: [Client]
    let people: [Person]
    private(set) var keys: [_RSA.Signing.PrivateKey]
    private var pid: pid_t = 0
    var issuer: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, folder: URL, clients: [Client], people: [Person], keys: [_RSA.Signing.PrivateKey]) {
        self.port = port
        self.folder = folder
        self.clients = clients
        self.people = people
        self.keys = keys
    }

    static func start(port: Int, clients: [Client], people: [Person]) async throws -> LocalIdentityProvider {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-provider-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let provider = LocalIdentityProvider(
            port: port, folder: folder, clients: clients, people: people,
            keys: [try _RSA.Signing.PrivateKey(keySize: .bits2048)])
        try await provider.run()
        return provider
    }

    /// Stops the provider (SIGKILL: a process that dies) and starts it again signing with
    /// `keys[0]` and publishing them all: a key rotation.
    func restart(keys: [_RSA.Signing.PrivateKey]) async throws {
        stop()
        self.keys = keys
        try await run()
    }

    func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func run() async throws {
        guard let python = ProcessInfo.processInfo.environment["OIDC_PROVIDER_PYTHON"], !python.isEmpty else {
            throw TestSetupError("OIDC_PROVIDER_PYTHON is not set: run the tests with scripts/test (it installs the provider's venv)")
        }
        var keyFiles: [String] = []
        for (index, key) in keys.enumerated() {
            let file = folder.appendingPathComponent("key-\(index).pem")
            try Data(key.pemRepresentation.utf8).write(to: file)
            keyFiles.append(file.path)
        }
        let config: [String: Any] = [
            "issuer": issuer, "signingKeys": keyFiles,
            "clients": clients.map { ["clientId": $0.id, "clientSecret": $0.secret as Any, "redirectUris": $0.redirectURIs] },
            "users": people.map {
                [
                    "username": $0.username, "password": $0.password, "sub": $0.subject, "email": $0.email, "emailVerified": $0.emailVerified,
                    "name": $0.name,
                ]
            },
        ]
        let configFile = folder.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/oidc-provider/provider.py").path
        let log = folder.appendingPathComponent("provider.log")
        pid = try ServiceProcess.spawn(python, [script, "--config", configFile.path], environment: [:], output: log)
        for _ in 0..<200 {
            if let (status, _) = try? await Self.get("\(issuer)/.well-known/openid-configuration"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("the OpenID provider did not start:\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// Signs in at the provider as `person` (its sign-in form, posted as a browser would) for
    /// `client`, and redeems the code with PKCE: the ID token the provider issued.
    func idToken(for client: Client, as person: Person, nonce: String) async throws -> String {
        let verifier = SessionToken.generate().text
        let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded
        let redirect = client.redirectURIs[0]
        var query = URLComponents(string: "\(issuer)/authorize")!
        query.queryItems = [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: client.id), .init(name: "redirect_uri", value: redirect),
            .init(name: "scope", value: "openid email profile"), .init(name: "state", value: "s-\(UUID().uuidString)"),
            .init(name: "nonce", value: nonce), .init(name: "code_challenge", value: challenge), .init(name: "code_challenge_method", value: "S256"),
        ]
        let (status, headers, _) = try await Self.post(
            query.string!, form: ["username": person.username, "password": person.password, "action": "sign-in"])
        guard status == 302, let location = headers.first(name: "Location"),
            let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw TestSetupError("the provider did not sign \(person.username) in: \(status)") }
        var form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": client.id, "code_verifier": verifier,
        ]
        if let secret = client.secret { form["client_secret"] = secret }
        let (tokenStatus, _, body) = try await Self.post("\(issuer)/token", form: form)
        guard tokenStatus == 200, let json = try JSONSerialization.jsonObject(with: body) as? [String: Any],
            let idToken = json["id_token"] as? String
        else { throw TestSetupError("the provider's token endpoint answered \(tokenStatus): \(String(decoding: body, as: UTF8.self))") }
        return idToken
    }

    /// The key id the provider gives `key` (its RFC 7638 thumbprint).
    static func keyID(of key: _RSA.Signing.PrivateKey) throws -> String {
        let primitives = try key.publicKey.getKeyPrimitives()
        let e = primitives.publicExponent.base64URLEncoded
        let n = primitives.modulus.base64URLEncoded
        return Data(SHA256.hash(data: Data("{\"e\":\"\(e)\",\"kty\":\"RSA\",\"n\":\"\(n)\"}".utf8))).base64URLEncoded
    }

    /// A JWT with these claims, signed RS256 by `key` under `kid` (the test forging, or
    /// re-signing as the provider would).
    static func sign(_ claims: [String: Any], with key: _RSA.Signing.PrivateKey, kid: String?, alg: String = "RS256") throws -> String {
        var header: [String: Any] = ["alg": alg, "typ": "JWT"]
        if let kid { header["kid"] = kid }
        let input =
            try JSONSerialization.data(withJSONObject: header).base64URLEncoded + "."
            + JSONSerialization.data(withJSONObject: claims).base64URLEncoded
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Data(signature.rawRepresentation).base64URLEncoded
    }

    /// The claims of a JWT (unverified: the test reads what the provider wrote).
    static func claims(of token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let data = Data(base64URL: parts[1]) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    static func get(_ url: String) async throws -> (Int, Data) {
        let (status, _, body) = try await send(HTTPClientRequest(url: url))
        return (status, body)
    }

    static func post(_ url: String, form: [String: String]) async throws -> (Int, HTTPHeaders, Data) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(string: form.map { "\($0.key)=\(ProviderSignIn.formEncoded($0.value))" }.joined(separator: "&")))
        return try await send(request)
    }

    private static func send(_ request: HTTPClientRequest) async throws -> (Int, HTTPHeaders, Data) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return (Int(response.status.code), response.headers, Data(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}

import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The service with a real OpenID Connect provider configured as an admin would configure it
/// (`fulfilment idp add`, the binary `make test` built): its web client (confidential, redirect
/// to this service's callback), an iOS app's client id (public, accepted as an audience) and
/// another app's (not accepted). Its people: Alice, who is new here; Bob, whose email the
/// provider has not verified; Mallory, who claims the email of a customer's password account;
/// Sam, whose email is a staff account's; Carol, for linking.
struct ProviderFixture: Sendable {
    let app: TestApp
    let idp: LocalIdentityProvider
    let web: LocalIdentityProvider.Client
    let ios: LocalIdentityProvider.Client
    let otherApp: LocalIdentityProvider.Client
    let alice: LocalIdentityProvider.Person
    let bob: LocalIdentityProvider.Person
    let mallory: LocalIdentityProvider.Person
    let sam: LocalIdentityProvider.Person
    let carol: LocalIdentityProvider.Person
    /// The customer with a password whose email Mallory claims.
    let victimEmail: String
    let staffEmail: String
    var issuer: String { idp.issuer }

    /// `POST /v1/auth/oidc/token` with `token`.
    func exchange(_ token: String, nonce: String?, password: String? = nil, issuer: String? = nil) async throws -> TestReply {
        var body: [String: JSONValue] = ["issuer": .string(issuer ?? self.issuer), "idToken": .string(token)]
        if let nonce { body["nonce"] = .string(nonce) }
        if let password { body["password"] = .string(password) }
        return try await app.request(.post, "/v1/auth/oidc/token", json: .object(body))
    }

    /// A token the provider issued to the iOS app for `person`, with a fresh nonce.
    func appToken(_ person: LocalIdentityProvider.Person) async throws -> (token: String, nonce: String) {
        let nonce = "n-\(UUID().uuidString)"
        return (try await idp.idToken(for: ios, as: person, nonce: nonce), nonce)
    }

    /// How many sessions and accounts exist: a refused sign-in changes neither.
    func counts() async throws -> [[String?]] {
        try await sql("SELECT (SELECT count(*) FROM sessions), (SELECT count(*) FROM users), (SELECT count(*) FROM identity_links)", on: app.database)
    }
}

/// Runs `body` with the service and the provider. `workforce`: the provider is the chain's
/// workforce provider (`FULFILMENT_WORKFORCE_ISSUER`).
func withIdentityProvider<T: Sendable>(
    workforce: Bool = false, _ body: @escaping @Sendable (ProviderFixture) async throws -> T
) async throws -> T {
    let port = try ServiceProcess.freePort()
    let tag = UUID().uuidString.prefix(8).lowercased()
    return try await withApp(configure: { configuration in
        // Every unknown key id fetches the keys again: the rotation test restarts the provider at once.
        configuration.providerSignIn.keysMinimumAge = .zero
        if workforce { configuration.providerSignIn.workforceIssuer = "http://127.0.0.1:\(port)" }
    }) { app in
        let web = LocalIdentityProvider.Client(id: "shop-web", secret: "web secret \(tag)", redirectURIs: ["\(app.baseURL)/signin/callback"])
        let ios = LocalIdentityProvider.Client(id: "com.example.shop.ios", secret: nil, redirectURIs: ["com.example.shop:/callback"])
        let otherApp = LocalIdentityProvider.Client(id: "someone-elses-app", secret: nil, redirectURIs: ["com.example.other:/callback"])
        let victimEmail = "victim-\(tag)@example.com"
        let staffEmail = "staff-\(tag)@example.com"
        let alice = LocalIdentityProvider.Person(username: "alice", subject: "alice-\(tag)", email: "alice-\(tag)@example.com", name: "Alice Chin")
        var bob = LocalIdentityProvider.Person(username: "bob", subject: "bob-\(tag)", email: "bob-\(tag)@example.com", name: "Bob Grant")
        bob.emailVerified = false
        let mallory = LocalIdentityProvider.Person(username: "mallory", subject: "mallory-\(tag)", email: victimEmail, name: "Mallory")
        let sam = LocalIdentityProvider.Person(username: "sam", subject: "sam-\(tag)", email: staffEmail, name: "Sam Staff")
        let carol = LocalIdentityProvider.Person(username: "carol", subject: "carol-\(tag)", email: "carol-\(tag)@mail.example", name: "Carol")
        let idp = try await LocalIdentityProvider.start(
            port: port, clients: [web, ios, otherApp], people: [alice, bob, mallory, sam, carol])
        defer { idp.stop() }
        let secretFile = idp.folder.appendingPathComponent("client-secret")
        try Data("\(web.secret!)\n".utf8).write(to: secretFile)
        let added = try await ServiceProcess.run([
            "idp", "add", "--issuer", idp.issuer, "--client-id", web.id, "--client-secret-file", secretFile.path, "--name", "Test ID",
            "--audience", ios.id, "--database-url", Backup.conninfo(app.database),
        ])
        guard added.status == 0 else { throw TestSetupError("fulfilment idp add failed: \(added.output)") }
        return try await body(
            ProviderFixture(
                app: app, idp: idp, web: web, ios: ios, otherApp: otherApp, alice: alice, bob: bob, mallory: mallory, sam: sam, carol: carol,
                victimEmail: victimEmail, staffEmail: staffEmail))
    }
}

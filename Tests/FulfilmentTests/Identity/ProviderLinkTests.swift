import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 33: the providers linked to one's own account (`GET /v1/me`, `POST /v1/me/identities`,
/// `DELETE /v1/me/identities/{providerId}`), the chain's workforce provider, and erasure.
@Suite("Sign in with an identity provider: links, the workforce provider, erasure")
struct ProviderLinkTests {
    @Test("a customer links a provider account with another email after giving their password, and unlinks it; the only way in stays")
    func linkAndUnlink() async throws {
        try await withIdentityProvider { fixture in
            let app = fixture.app
            let customer = try await app.registerCustomer(password: "my own password")
            let (token, nonce) = try await fixture.appToken(fixture.carol)
            func link(_ password: String?, as session: Session) async throws -> TestReply {
                var body: [String: JSONValue] = ["issuer": .string(fixture.issuer), "idToken": .string(token), "nonce": .string(nonce)]
                if let password { body["password"] = .string(password) }
                return try await app.request(.post, "/v1/me/identities", json: .object(body), token: session.token)
            }
            // A session alone does not add a way in.
            #expect(try await link(nil, as: customer).errorCode == "wrong_password")
            #expect(try await link("not my password", as: customer).errorCode == "wrong_password")
            let linked = try await link("my own password", as: customer)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.json["identities"].array.map { $0["email"].string } == [fixture.carol.email])
            #expect(try await link("my own password", as: customer).status == .ok, "linking the same account again changes nothing")
            // Carol at the provider now signs in to this account, whose email is another.
            let (signIn, signInNonce) = try await fixture.appToken(fixture.carol)
            #expect(try await fixture.exchange(signIn, nonce: signInNonce).json["user"]["id"].string == customer.userID)
            // Another account cannot take the same provider account.
            let other = try await app.registerCustomer(password: "other password")
            #expect(try await link("other password", as: other).errorCode == "identity_in_use")

            let providerID = try #require(linked.json["identities"][0]["providerId"].string)
            #expect(try await app.request(.delete, "/v1/me/identities/\(providerID)", token: customer.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/me", token: customer.token).json["identities"].array.isEmpty)
            #expect(try await app.request(.delete, "/v1/me/identities/\(providerID)", token: customer.token).status == .notFound)

            // An account made through the provider has no password: its only way in stays.
            let (aliceToken, aliceNonce) = try await fixture.appToken(fixture.alice)
            let alice = try await fixture.exchange(aliceToken, nonce: aliceNonce)
            let aliceSession = try #require(alice.json["token"].string)
            let refused = try await app.request(.delete, "/v1/me/identities/\(providerID)", token: aliceSession)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "last_sign_in_method")
            // Once Alice sets a password (her session stands for the one she has not got), she may.
            let set = try await app.request(
                .post, "/v1/me/password",
                json: ["currentPassword": "", "newPassword": "alice's new password", "newPasswordConfirmation": "alice's new password"],
                token: aliceSession)
            #expect(set.status == .noContent, "\(set.text)")
            #expect(try await app.login(fixture.alice.email, "alice's new password").status == .ok)
            #expect(try await app.request(.delete, "/v1/me/identities/\(providerID)", token: aliceSession).status == .noContent)
        }
    }

    @Test("with a workforce provider, staff sign in only through it, linked once with their password; it makes no accounts; customers are unaffected")
    func workforce() async throws {
        try await withIdentityProvider(workforce: true) { fixture in
            let app = fixture.app
            let store = try await app.createStore()
            try await app.withDatabase { database in
                _ = try await Accounts(database: database, hasher: PasswordHasher(cost: 4)).createStoreAccount(
                    email: fixture.staffEmail, name: "Sam Staff", password: "staff password", role: .staff, store: StoreID(store)!,
                    logger: .init(label: "test"))
            }
            let password = try await app.login(fixture.staffEmail, "staff password")
            #expect(password.status == .forbidden)
            #expect(password.errorCode == "workforce_sign_in_required")
            // A wrong password still says only that it is wrong.
            #expect(try await app.login(fixture.staffEmail, "a guess at it").errorCode == "invalid_credentials")

            let (token, nonce) = try await fixture.appToken(fixture.sam)
            #expect(try await fixture.exchange(token, nonce: nonce).errorCode == "password_required")
            let linked = try await fixture.exchange(token, nonce: nonce, password: "staff password")
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.json["user"]["role"].string == "staff")
            #expect(linked.json["user"]["storeId"].string == store)

            // Nobody at the workforce provider gets a new account from it.
            let (aliceToken, aliceNonce) = try await fixture.appToken(fixture.alice)
            let alice = try await fixture.exchange(aliceToken, nonce: aliceNonce)
            #expect(alice.status == .forbidden)
            #expect(alice.errorCode == "no_account")
            // Customers still sign in with their password.
            let customer = try await app.registerCustomer(password: "customer password")
            #expect(customer.token.isEmpty == false)
        }
    }

    @Test("erasing an account removes its links: the provider's subject then leads to a new account, not the erased one")
    func erasure() async throws {
        try await withIdentityProvider { fixture in
            let app = fixture.app
            let (token, nonce) = try await fixture.appToken(fixture.alice)
            let alice = try await fixture.exchange(token, nonce: nonce)
            let aliceID = try #require(alice.json["user"]["id"].string)
            // Her data export names the provider and the subject it knows her by.
            let export = try await app.request(.get, "/v1/me/export", token: alice.json["token"].string)
            #expect(export.json["identities"].array.map { $0["subject"].string } == [fixture.alice.subject])
            #expect(export.json["identities"][0]["issuer"].string == fixture.issuer)
            // No password to give: the empty one stands for the session.
            let erased = try await app.request(
                .delete, "/v1/me", json: ["password": ""], token: alice.json["token"].string)
            #expect(erased.status == .noContent, "\(erased.text)")
            #expect(try await sql("SELECT count(*) FROM identity_links WHERE user_id = $1", [aliceID], on: app.database) == [["0"]])

            let (again, againNonce) = try await fixture.appToken(fixture.alice)
            let fresh = try await fixture.exchange(again, nonce: againNonce)
            #expect(fresh.status == .ok, "\(fresh.text)")
            #expect(fresh.json["user"]["id"].string != aliceID)
        }
    }
}

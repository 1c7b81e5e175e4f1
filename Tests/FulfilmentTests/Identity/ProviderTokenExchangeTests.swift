import Foundation
import Testing
import _CryptoExtras

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 33: an app signs its customer in with an ID token it got from the provider natively
/// (`POST /v1/auth/oidc/token`), against a real provider. Every forgery is refused with the rule
/// it broke, and signs nobody in.
@Suite("Sign in with an identity provider: the apps' token exchange")
struct ProviderTokenExchangeTests {
    @Test("a first sign-in creates a customer from the verified email; the next signs in to the same account")
    func firstAndSecondSignIn() async throws {
        try await withIdentityProvider { fixture in
            let (token, nonce) = try await fixture.appToken(fixture.alice)
            let first = try await fixture.exchange(token, nonce: nonce)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.json["user"]["email"].string == fixture.alice.email)
            #expect(first.json["user"]["name"].string == "Alice Chin")
            #expect(first.json["user"]["role"].string == "customer")
            let me = try await fixture.app.request(.get, "/v1/me", token: first.json["token"].string)
            #expect(me.json["hasPassword"].bool == false)
            #expect(me.json["identities"].array.map { $0["issuer"].string } == [fixture.issuer])
            #expect(me.json["identities"][0]["name"].string == "Test ID")

            let (again, againNonce) = try await fixture.appToken(fixture.alice)
            let second = try await fixture.exchange(again, nonce: againNonce)
            #expect(second.status == .ok)
            #expect(second.json["user"]["id"] == first.json["user"]["id"])
            #expect(second.json["token"] != first.json["token"])
            #expect(
                try await sql("SELECT count(*) FROM users WHERE lower(email) = lower($1)", [fixture.alice.email], on: fixture.app.database) == [["1"]]
            )
            // The same token's session works as a password sign-in's, and the provider list names the provider.
            let providers = try await fixture.app.request(.get, "/v1/auth/providers")
            #expect(providers.json["items"].array.map { $0["issuer"].string } == [fixture.issuer])
            #expect(providers.json["items"][0]["signInPath"].string?.hasPrefix("/signin/provider/") == true)
        }
    }

    @Test(
        "six first sign-ins of one new person at once (six tokens, two devices and a double tap), each on its own connection, make one account and one link, and all sign in to it"
    )
    func firstSignInsAtOnce() async throws {
        try await withIdentityProvider { fixture in
            var minted: [(String, String)] = []
            for _ in 0..<6 { minted.append(try await fixture.appToken(fixture.alice)) }
            let tokens = minted
            let replies = try await fixture.app.race(6) { index, racer in
                try await racer.request(
                    .post, "/v1/auth/oidc/token",
                    json: ["issuer": .string(fixture.issuer), "idToken": .string(tokens[index].0), "nonce": .string(tokens[index].1)])
            }
            #expect(replies.map(\.status) == Array(repeating: .ok, count: 6), "\(replies.map(\.text))")
            #expect(Set(replies.map { $0.json["user"]["id"] }).count == 1)
            #expect(
                try await sql(
                    "SELECT count(*), (SELECT count(*) FROM identity_links) FROM users WHERE lower(email) = lower($1)", [fixture.alice.email],
                    on: fixture.app.database) == [["1", "1"]])
        }
    }

    @Test("forgeries and tokens for someone else are refused with the rule they broke, and sign nobody in")
    func forgeries() async throws {
        try await withIdentityProvider { fixture in
            let key = fixture.idp.keys[0]
            let kid = try LocalIdentityProvider.keyID(of: key)
            let (real, nonce) = try await fixture.appToken(fixture.alice)
            var claims = LocalIdentityProvider.claims(of: real)
            let before = try await fixture.counts()

            func refused(_ token: String, nonce: String?, _ code: String, status: Int = 401, _ comment: Comment) async throws {
                let reply = try await fixture.exchange(token, nonce: nonce)
                #expect(Int(reply.status.code) == status, comment)
                #expect(reply.errorCode == code, "\(comment): \(reply.text)")
                #expect(reply.json["error"]["details"]["step"].string != nil, comment)
            }

            // Issued by the provider, but to another application.
            let forOther = try await fixture.idp.idToken(for: fixture.otherApp, as: fixture.alice, nonce: "n-other")
            try await refused(forOther, nonce: "n-other", "wrong_audience", "a token for another app")
            // Expired: the provider's own key, an hour ago.
            let now = Date().timeIntervalSince1970
            claims["iat"] = Int(now) - 3_600
            claims["exp"] = Int(now) - 3_300
            try await refused(try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce, "token_expired", "an expired token")
            // Issued in the future (beyond a minute's skew).
            claims["iat"] = Int(now) + 600
            claims["exp"] = Int(now) + 900
            try await refused(
                try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce, "token_not_yet_valid", "a token from the future")
            // A real token for another sign-in's nonce.
            try await refused(real, nonce: "n-somebody-else", "wrong_nonce", "the wrong nonce")
            // Signed by another key: under a key id of its own (unknown even after fetching the keys again)...
            let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            claims = LocalIdentityProvider.claims(of: real)
            try await refused(
                try LocalIdentityProvider.sign(claims, with: stranger, kid: try LocalIdentityProvider.keyID(of: stranger)), nonce: nonce,
                "unknown_signing_key", "another key")
            // ...and claiming the provider's key id.
            try await refused(
                try LocalIdentityProvider.sign(claims, with: stranger, kid: kid), nonce: nonce, "bad_signature", "another key, the provider's kid")
            // The real token with a claim changed (another subject).
            let parts = real.split(separator: ".").map(String.init)
            var tampered = claims
            tampered["sub"] = fixture.mallory.subject
            let tamperedToken = parts[0] + "." + (try JSONSerialization.data(withJSONObject: tampered)).base64URLEncoded + "." + parts[2]
            try await refused(tamperedToken, nonce: nonce, "bad_signature", "a changed claim")
            // alg none: no signature at all.
            let none = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URLEncoded + "." + parts[1] + "."
            try await refused(none, nonce: nonce, "unsupported_algorithm", "alg none")
            // HS256 keyed with the public key (the old confusion of algorithms).
            try await refused(
                try LocalIdentityProvider.sign(claims, with: key, kid: kid, alg: "HS256"), nonce: nonce, "unsupported_algorithm", "alg HS256")
            // Another issuer's claim in a token the provider's key signed.
            var elsewhere = claims
            elsewhere["iss"] = "https://accounts.example.net"
            try await refused(try LocalIdentityProvider.sign(elsewhere, with: key, kid: kid), nonce: nonce, "wrong_issuer", "another issuer")
            // Not a JWT.
            try await refused("not.a.jwt", nonce: nil, "invalid_id_token", "garbage")
            // A provider nobody configured.
            let unknown = try await fixture.exchange(real, nonce: nonce, issuer: "https://login.example.org")
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorCode == "unknown_provider")
            // The provider has not verified Bob's email: no account is created for it.
            let (bobs, bobNonce) = try await fixture.appToken(fixture.bob)
            try await refused(bobs, nonce: bobNonce, "email_not_verified", status: 403, "an unverified email")

            // Several audiences, ours among them, but no azp naming us: anyone in the list could have asked for it.
            claims = LocalIdentityProvider.claims(of: real)
            let ours = try #require(claims["aud"] as? String)
            claims["aud"] = [ours, "https://elsewhere.example"]
            claims.removeValue(forKey: "azp")
            try await refused(
                try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce, "wrong_audience", "several audiences, no azp")
            claims["azp"] = "https://elsewhere.example"
            try await refused(try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce, "wrong_audience", "another app's azp")
            // An expiry no provider issues, to be replayed for ever.
            claims = LocalIdentityProvider.claims(of: real)
            for exp in [1e300, now + 8 * 86_400] {
                claims["exp"] = exp
                try await refused(
                    try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce, "token_lifetime_too_long", "exp \(exp)")
            }

            #expect(try await fixture.counts() == before, "a refused token created a session, an account or a link")
            // And the real token, untouched, still signs Alice in, once.
            #expect(try await fixture.exchange(real, nonce: nonce).status == .ok)
            // Several audiences with our azp are taken.
            claims = LocalIdentityProvider.claims(of: real)
            claims["aud"] = [ours, "https://elsewhere.example"]
            claims["azp"] = ours
            #expect(try await fixture.exchange(try LocalIdentityProvider.sign(claims, with: key, kid: kid), nonce: nonce).status == .ok)
        }
    }

    @Test("a token is exchanged once: sent again, at once on six connections or later, it is refused and only one session lives")
    func exchangedOnce() async throws {
        try await withIdentityProvider { fixture in
            let (token, nonce) = try await fixture.appToken(fixture.alice)
            let replies = try await fixture.app.race(6) { _, racer in
                try await racer.request(
                    .post, "/v1/auth/oidc/token",
                    json: ["issuer": .string(fixture.issuer), "idToken": .string(token), "nonce": .string(nonce)])
            }
            #expect(replies.filter { $0.status == .ok }.count == 1, "\(replies.map(\.text))")
            #expect(replies.filter { $0.errorCode == "token_already_used" }.count == 5)
            var live = 0
            for reply in replies where reply.status == .ok {
                if try await fixture.app.request(.get, "/v1/me", token: reply.json["token"].string).status == .ok { live += 1 }
            }
            #expect(live == 1)
            #expect(
                try await sql("SELECT count(*) FROM sessions WHERE ended_at IS NULL", on: fixture.app.database) == [["1"]],
                "a replayed exchange left a session behind")
            let later = try await fixture.exchange(token, nonce: nonce)
            #expect(later.status == .unauthorized && later.errorCode == "token_already_used")
            #expect(try await sql("SELECT count(*) FROM exchanged_id_tokens", on: fixture.app.database) == [["1"]])
        }
    }

    @Test("a provider that says a customer's email is verified does not get into their password account without the password")
    func takeover() async throws {
        try await withIdentityProvider { fixture in
            let victim = try await fixture.app.registerCustomer(email: fixture.victimEmail, password: "victim's own password")
            let (token, nonce) = try await fixture.appToken(fixture.mallory)
            let before = try await fixture.counts()

            let asked = try await fixture.exchange(token, nonce: nonce)
            #expect(asked.status == .conflict)
            #expect(asked.errorCode == "password_required")
            #expect(asked.json["error"]["details"]["email"].string == fixture.victimEmail)
            let guessed = try await fixture.exchange(token, nonce: nonce, password: "password123")
            #expect(guessed.status == .unprocessableContent)
            #expect(guessed.errorCode == "wrong_password")
            #expect(try await fixture.counts() == before, "the takeover attempt linked, created or signed in something")
            let me = try await fixture.app.request(.get, "/v1/me", token: victim.token)
            #expect(me.json["identities"].array.isEmpty)
            #expect(me.json["hasPassword"].bool == true)

            // The account's owner gives the password once: linked, and signed in.
            let linked = try await fixture.exchange(token, nonce: nonce, password: "victim's own password")
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.json["user"]["id"].string == victim.userID)
            // From then on the provider alone signs in to it.
            let (next, nextNonce) = try await fixture.appToken(fixture.mallory)
            let again = try await fixture.exchange(next, nonce: nextNonce)
            #expect(again.status == .ok)
            #expect(again.json["user"]["id"].string == victim.userID)
        }
    }

    @Test("the provider rotates its keys (a restart with a new signing key): a token under the new key id is taken, the keys fetched again")
    func keyRotation() async throws {
        try await withIdentityProvider { fixture in
            let (first, firstNonce) = try await fixture.appToken(fixture.alice)
            #expect(try await fixture.exchange(first, nonce: firstNonce).status == .ok)
            let old = fixture.idp.keys[0]
            let new = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            try await fixture.idp.restart(keys: [new, old])
            let (rotated, rotatedNonce) = try await fixture.appToken(fixture.alice)
            #expect(LocalIdentityProvider.claims(of: rotated)["sub"] as? String == fixture.alice.subject)
            let accepted = try await fixture.exchange(rotated, nonce: rotatedNonce)
            #expect(accepted.status == .ok, "\(accepted.text)")
        }
    }
}

import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 33, in Chromium as a customer does it: "Sign in with Test ID" on the sign-in page,
/// the provider's own sign-in form, and back in the shop signed in; the provider vouching for
/// the email of an account with a password (linked only once its password is typed); saying no
/// at the provider; and a forged way back. Each failure names its step and signs nobody in.
@Suite(
    "Sign in with an identity provider in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct ProviderBrowserTests {
    @Test(
        "sign in at the provider and come back signed in; link an existing account with its password; a refusal and a forgery sign nobody in",
        .timeLimit(.minutes(4)))
    func webSignIn() async throws {
        try await withIdentityProvider { fixture in
            let app = fixture.app
            let victim = try await app.registerCustomer(email: fixture.victimEmail, password: "victim's own password")
            try await withBrowser { browser in
                let base = app.baseURL
                func signInAtProvider(_ person: LocalIdentityProvider.Person) async throws {
                    try await browser.open(base + "/")
                    try await browser.waitFor("#providers")
                    #expect(try await browser.text("#providers a") == "Sign in with Test ID")
                    try await browser.click("#providers a")
                    try await browser.waitFor("#username")
                    #expect(try await browser.currentURL.hasPrefix(fixture.issuer + "/authorize"))
                    try await browser.type(person.username, into: "#username")
                    try await browser.type(person.password, into: "#password")
                    try await browser.click("#sign-in")
                }
                func signOut() async throws {
                    try await browser.click("#sign-out")
                    try await browser.waitFor("#sign-in")
                }

                // Alice is new: back in the shop, signed in to a customer account made from her verified email.
                try await signInAtProvider(fixture.alice)
                try await browser.waitFor("#sign-out")
                #expect(try await browser.currentURL.hasPrefix(base + "/shop"))
                let alice = try await sql(
                    "SELECT u.role, l.subject FROM users u JOIN identity_links l ON l.user_id = u.id WHERE u.email = $1", [fixture.alice.email],
                    on: app.database)
                #expect(alice == [["customer", fixture.alice.subject]])
                try await browser.snapshot("provider-signed-in")
                // "My data" says how she signs in: Test ID, and no password, so erasing asks for none.
                try await browser.open(base + "/account")
                try await browser.waitFor("#identities")
                #expect(try await browser.text("#identities li").hasPrefix("Test ID (\(fixture.alice.email))"))
                #expect(try await browser.attribute("#erase input[name=password]", "type") == "hidden")
                // Unlinking her only way in is refused, with the reason.
                try await browser.click("#identities button")
                try await browser.waitFor("#account-note")
                #expect(try await browser.text("#account-note").hasPrefix("This is the only way to sign in to this account"))
                try await signOut()

                // Mallory's provider says she is the victim: the victim's password is asked for, once.
                try await signInAtProvider(fixture.mallory)
                try await browser.waitFor("#link-form")
                #expect(try await browser.text("#link-form p").contains(fixture.victimEmail))
                try await browser.snapshot("provider-link")
                try await browser.type("password123", into: "#link-password")
                try await browser.click("#link-button")
                try await browser.waitFor("#link-problem")
                #expect(try await sql("SELECT count(*) FROM identity_links WHERE user_id = $1", [victim.userID], on: app.database) == [["0"]])
                try await browser.type("victim's own password", into: "#link-password")
                try await browser.click("#link-button")
                try await browser.waitFor("#sign-out")
                #expect(
                    try await sql("SELECT subject FROM identity_links WHERE user_id = $1", [victim.userID], on: app.database) == [
                        [fixture.mallory.subject]
                    ])
                try await signOut()

                // Saying no at the provider: the step is named, and nobody is signed in.
                try await browser.open(base + "/")
                try await browser.click("#providers a")
                try await browser.waitFor("#deny")
                try await browser.click("#deny")
                try await browser.waitFor("#provider-failure")
                #expect(try await browser.attribute("#provider-failure", "data-code") == "provider_refused")
                #expect(try await browser.text("#provider-failure h1") == "Sign-in failed while coming back from the provider")
                #expect(try await browser.script("return document.querySelector('#sign-out') === null") as? Bool == true)

                // A way back this browser never started (another's code and state): refused, nobody signed in.
                let sessionsBefore = try await sql("SELECT count(*) FROM sessions", on: app.database)
                try await browser.open(base + "/signin/callback?state=\(SessionToken.generate().text)&code=stolen-code")
                try await browser.waitFor("#provider-failure")
                #expect(try await browser.attribute("#provider-failure", "data-code") == "state_mismatch")
                // A customer's own page asks this browser to sign in (the shop's reading pages are open to visitors).
                try await browser.open(base + "/orders")
                try await browser.waitFor("#sign-in")
                #expect(try await sql("SELECT count(*) FROM sessions", on: app.database) == sessionsBefore)
            }
        }
    }
}

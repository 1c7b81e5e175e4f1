import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import Logging

/// Signing in with an identity provider from a browser (issue 33): the buttons on the sign-in
/// page, the redirect to the provider, the way back (`/signin/callback`), and the page that asks
/// an existing account's password once to link it. The session is the console's own cookie.
extension AccountController {
    func registerProviderSignIn(on router: RouteCollection<AppRequestContext>) {
        router.get("/signin/provider/:id") { request, context in
            do {
                guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw ProviderSignInError.unknownProvider }
                let returnTo = Self.returnPath(request.uri.queryParameters.get("returnTo"))
                let (url, state) = try await services.providerSignIn.startBrowserSignIn(
                    provider: id, redirectURI: "\(publicURL(of: request))/signin/callback", returnTo: returnTo ?? "", logger: context.logger)
                return ConsolePage.redirect(url, cookie: stateCookie(state))
            } catch {
                return try providerFailure(error, logger: context.logger)
            }
        }
        router.get("/signin/callback") { request, context in
            let query = request.uri.queryParameters
            do {
                let outcome = try await services.providerSignIn.finishBrowserSignIn(
                    state: query.get("state"), cookie: request.cookies[ProviderSignIn.stateCookie]?.value, code: query.get("code"),
                    error: query.get("error"), logger: context.logger)
                return try await signedIn(outcome, request: request, logger: context.logger)
            } catch {
                return try providerFailure(error, logger: context.logger)
            }
        }
        router.get("/signin/link") { request, context in
            do {
                let (email, provider) = try await services.providerSignIn.waitingForPassword(
                    state: request.cookies[ProviderSignIn.stateCookie]?.value, logger: context.logger)
                return SignInView.linkPage(email: email, provider: provider, problem: nil).response()
            } catch {
                return try providerFailure(error, logger: context.logger)
            }
        }
        router.post("/signin/link") { request, context in
            let form = try await ConsoleForm.read(request)
            let state = request.cookies[ProviderSignIn.stateCookie]?.value
            do {
                let outcome = try await services.providerSignIn.linkWithPassword(
                    state: state, password: form["password"] ?? "", logger: context.logger)
                return try await signedIn(outcome, request: request, logger: context.logger)
            } catch AccountError.inField(let error, _) where error == .wrongPassword {
                let (email, provider) = try await services.providerSignIn.waitingForPassword(state: state, logger: context.logger)
                return SignInView.linkPage(email: email, provider: provider, problem: "That is not this account's password.")
                    .response(status: .unprocessableContent)
            } catch {
                return try providerFailure(error, logger: context.logger)
            }
        }
    }

    /// The session's cookie, and a page that moves on to where the person was going. Not a
    /// redirect: the way here began at the provider's site, and a browser does not send a
    /// SameSite=Strict cookie on a redirect chain that crossed sites; a page of this site that
    /// moves on itself (meta refresh, no script) starts a same-site navigation that does.
    /// A visitor's cart and store come with them (``SignInLanding``).
    private func signedIn(_ outcome: ProviderSignIn.BrowserOutcome, request: Request, logger: Logger) async throws -> Response {
        switch outcome {
        case .needsPassword:
            return ConsolePage.redirect("/signin/link")
        case .signedIn(let signedIn, let returnTo):
            let landing = try await SignInLanding.land(
                request, user: signedIn.user, next: returnTo.isEmpty ? nil : returnTo, home: Self.home(for: signedIn.user.role),
                services: services, secure: secureCookies, logger: logger)
            var response = SignInView.signedInPage(next: landing.location, name: signedIn.user.name).response()
            response.setCookie(ConsoleSession.cookie(token: signedIn.token.text, secure: secureCookies))
            response.setCookie(stateCookie(nil))
            for cookie in landing.cookies { response.setCookie(cookie) }
            return response
        }
    }

    /// A sign-in that failed: which step, and the service's sentence; nobody is signed in. A
    /// fault of this service's own is thrown, to be logged and answered as one.
    private func providerFailure(_ error: any Error, logger: Logger) throws -> Response {
        let refused = try Self.clientRefusal(error)
        var response = SignInView.failurePage(refused).response(status: refused.status)
        response.setCookie(stateCookie(nil))
        return response
    }

    /// The sign-in page's buttons: links (a form could not follow a redirect to another site
    /// under this site's `form-action 'self'`).
    func providerButtons(next: String? = nil, logger: Logger) async throws -> HTML {
        let providers = try await services.providerSignIn.providers(logger: logger)
        return SignInView.providerButtons(providers, next: next)
    }

    /// The state's cookie: sent back on the provider's redirect (a top-level navigation, so Lax),
    /// to this path only, for the sign-in's 10 minutes; nil clears it.
    private func stateCookie(_ state: String?) -> Cookie {
        Cookie(
            name: ProviderSignIn.stateCookie, value: state ?? "", expires: state == nil ? Date(timeIntervalSince1970: 0) : nil,
            maxAge: state == nil ? 0 : 600, path: "/signin", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// The address browsers reach this service at: `FULFILMENT_PUBLIC_URL`, or the request's own.
    private func publicURL(of request: Request) -> String {
        if let configured = services.providerSignIn.settings.publicURL { return configured }
        let host = request.head.authority ?? request.headers[HTTPField.Name("Host")!] ?? "127.0.0.1"
        return "\(secureCookies ? "https" : "http")://\(host)"
    }

    /// A path within this site to return to after signing in, or nil.
    static func returnPath(_ raw: String?) -> String? {
        guard let raw, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.hasPrefix("/\\"), raw.count <= 500,
            !raw.contains(where: { $0.isWhitespace || $0.isNewline })
        else { return nil }
        return raw
    }
}

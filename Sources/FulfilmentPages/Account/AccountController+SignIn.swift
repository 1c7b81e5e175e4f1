import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// `/`: the sign-in page, or the right start page for whoever is signed in (staff and managers
/// to the desk, the chain's admins to its stores, customers to the shop); `POST /signin` and `POST /signout`.
extension AccountController {
    func registerSignIn(on router: RouteCollection<AppRequestContext>) {
        router.get("/") { request, context in
            let next = SignInLanding.next(ConsoleForm(encoded: request.uri.query ?? "")["next"])
            if let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger) {
                return ConsolePage.redirect(next ?? Self.home(for: session.identity.role))
            }
            return SignInView.signInPage(
                email: nil, problem: nil, providers: try await providerButtons(next: next, logger: context.logger), next: next
            )
            .response()
        }
        router.post("/signin") { request, context in
            let form = try await ConsoleForm.read(request)
            let next = SignInLanding.next(form["next"])
            do {
                let signedIn = try await accounts.login(email: form["email"] ?? "", password: form["password"] ?? "", logger: context.logger)
                let landing = try await SignInLanding.land(
                    request, user: signedIn.user, next: next, home: Self.home(for: signedIn.user.role), services: services,
                    secure: secureCookies, logger: context.logger)
                return landing.redirect(session: signedIn.token.text, secure: secureCookies)
            } catch {
                let apiError = ErrorMiddleware<AppRequestContext>.apiError(for: error)
                guard apiError.status != .internalServerError else { return refusal(error, session: nil, logger: context.logger) }
                var response = SignInView.signInPage(
                    email: form["email"], problem: apiError.message, providers: try await providerButtons(next: next, logger: context.logger),
                    next: next
                ).response(status: apiError.status)
                response.headers[.wwwAuthenticate] = nil
                return response
            }
        }
        router.post("/signout") { request, context in
            try await page(request, context, operation: "logout") { visit in
                try await accounts.logout(visit.identity, logger: visit.logger)
                return ConsolePage.redirect("/", cookie: ConsoleSession.clearingCookie(secure: secureCookies))
            }
        }
    }

    static func home(for role: Role) -> String {
        switch role {
        case .staff, .manager: "/console/desk"
        case .admin: "/console/stores"
        case .customer: "/shop"
        }
    }
}

import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// One's own details on "My data" (issue 44): the name, the email address (changed once the new
/// address confirms, `GET/POST /account/email/confirm`), and the optional messages; and the
/// unsubscribe link of those messages (`GET/POST /unsubscribe`). The same domain services as the
/// API's `updateMe`, `confirmEmailChange`.
extension AccountController {
    func registerProfile(on router: RouteCollection<AppRequestContext>) {
        router.post("/account/profile") { request, context in
            try await page(request, context, operation: "updateMe") { visit in
                let form = visit.form
                do {
                    let (_, profile) = try await services.profiles.update(
                        visit.identity, name: form["name"], email: form["email"],
                        preferences: .init(backInStock: form["backInStock"] == "on", reminders: form["reminders"] == "on"),
                        logger: visit.logger)
                    let text =
                        profile.pendingEmail.map { "Saved. We sent a link to \($0): your address changes when you follow it." } ?? "Saved."
                    return try await accountPage(visit, notice: Notice(ok: true, text: text))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await accountPage(visit, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.get("/account/email/confirm") { request, _ in
            ProfileView.confirmEmailPage(token: String((request.uri.queryParameters.get("token") ?? "").prefix(200))).response()
        }
        router.post("/account/email/confirm") { request, context in
            let form = try await ConsoleForm.read(request)
            do {
                _ = try await services.profiles.confirmEmail(token: form["token"] ?? "", logger: context.logger)
                return ProfileView.emailConfirmedPage().response()
            } catch {
                let refused = try Self.clientRefusal(error)
                return ConsolePage.message("That did not work", refused.message, session: nil, status: refused.status)
            }
        }
        router.get("/unsubscribe") { request, _ in
            let query = request.uri.queryParameters
            guard let kind = query.get("kind").flatMap(MessageKind.init(rawValue:)), kind.isOptional else {
                return ConsolePage.message("Unsubscribe", "This link does not name messages one can stop.", session: nil, status: .badRequest)
            }
            return ProfileView.unsubscribePage(kind: kind, token: String((query.get("token") ?? "").prefix(200))).response()
        }
        // One click from a mail program (RFC 8058) posts here with the link's own query, from no
        // page of ours: `SameOriginMiddleware` lets this one path through; the token is the proof.
        router.post("/unsubscribe") { request, context in
            let query = request.uri.queryParameters
            guard let kind = query.get("kind").flatMap(MessageKind.init(rawValue:)),
                try await services.profiles.unsubscribe(token: query.get("token") ?? "", kind: kind, logger: context.logger)
            else {
                return ConsolePage.message("Unsubscribe", "This link does not work.", session: nil, status: .badRequest)
            }
            return ConsolePage.message(
                "Unsubscribed", "You will get no more \(kind.label.lowercased()) messages. Change it any time under My data.",
                session: nil, status: .ok)
        }
    }

    func accountPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let csrf = ConsolePage.csrfInput(visit.session)
        let linked = try await services.providerSignIn.linked(visit.identity, logger: visit.logger)
        let user = try await accounts.me(visit.identity, logger: visit.logger)
        let profile = try await services.profiles.profile(of: visit.identity.userID, logger: visit.logger)
        return MyDataView.page(
            session: visit.session, csrf: csrf, notice: notice, linked: linked,
            details: ProfileView.details(user: user, profile: profile, csrf: csrf)
        ).response(status: status)
    }
}

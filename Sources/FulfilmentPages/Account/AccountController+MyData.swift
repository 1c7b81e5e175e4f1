import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// "My data", `/account`, for everyone signed in (issue 32): download everything the service
/// holds about you (`exportMe`, the same streamed document as the API's) and erase your account
/// (`eraseMe`, with your password, refused while an order is open); see and unlink the identity
/// providers you sign in with (`unlinkIdentity`, issue 33).
extension AccountController {
    var erasures: Erasures { services.erasures }

    func registerAccount(on router: RouteCollection<AppRequestContext>) {
        router.get("/account") { request, context in
            try await page(request, context, operation: "exportMe") { visit in
                try await accountPage(visit, notice: nil)
            }
        }
        router.post("/account/identities/:provider/unlink") { request, context in
            try await page(request, context, operation: "unlinkIdentity") { visit in
                do {
                    guard let provider = context.parameters.get("provider").flatMap(UUID.init(uuidString:)) else {
                        throw ProviderSignInError.notLinked
                    }
                    try await services.providerSignIn.unlink(provider: provider, from: visit.identity, logger: visit.logger)
                    return try await accountPage(visit, notice: Notice(ok: true, text: "Unlinked."))
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await accountPage(visit, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
            }
        }
        router.get("/account/export") { request, context in
            try await page(request, context, operation: "exportMe") { visit in
                let (head, body) = ExportMiddleware.response(for: visit.identity.userID, database: services.database, logger: visit.logger)
                return Response(
                    status: head.status, headers: head.headerFields,
                    body: ResponseBody(asyncSequence: body.map { ByteBuffer(bytes: $0) }))
            }
        }
        router.post("/account/erase") { request, context in
            try await page(request, context, operation: "eraseMe") { visit in
                let content: Erasures.Content = visit.form["deleteContent"] == "on" ? .delete : .keep
                do {
                    try await erasures.eraseSelf(visit.identity, password: visit.form["password"] ?? "", content: content, logger: visit.logger)
                } catch {
                    let refused = try Self.clientRefusal(error)
                    return try await accountPage(visit, notice: Notice(ok: false, text: refused.message), status: refused.status)
                }
                var response = ConsolePage.message(
                    "Account erased", "Your account is erased: your name, email and password are gone, and you are signed out.",
                    session: nil, status: .ok)
                response.setCookie(ConsoleSession.clearingCookie(secure: secureCookies))
                return response
            }
        }
    }
}

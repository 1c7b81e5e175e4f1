import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// "Forgot your password?" without script (issue 44): `GET/POST /password-reset` asks for the
/// address (the same answer whether or not it has an account), `GET/POST /password-reset/confirm`
/// sets the new password from the mailed link; the same domain service as the API's
/// `requestPasswordReset` and `confirmPasswordReset`. Nobody is signed in on these pages.
extension AccountController {
    func registerPasswordReset(on router: RouteCollection<AppRequestContext>) {
        router.get("/password-reset") { _, _ in
            PasswordResetView.requestPage(email: nil, problem: nil).response()
        }
        router.post("/password-reset") { request, context in
            let form = try await ConsoleForm.read(request)
            do {
                try await services.passwordResets.request(email: form["email"] ?? "", logger: context.logger)
                return PasswordResetView.requestedPage().response(status: .accepted)
            } catch {
                let refused = try Self.clientRefusal(error)
                return PasswordResetView.requestPage(email: form["email"], problem: refused.message).response(status: refused.status)
            }
        }
        router.get("/password-reset/confirm") { request, context in
            let token = request.uri.queryParameters.get("token") ?? ""
            let state = try await services.passwordResets.status(of: String(token.prefix(200)), logger: context.logger)
            guard state == "ok" else {
                let refused = AccountError.linkNotValid(reason: state).apiError
                return PasswordResetView.linkRefusedPage(refused.message).response(status: refused.status)
            }
            return PasswordResetView.newPasswordPage(token: token, problem: nil).response()
        }
        router.post("/password-reset/confirm") { request, context in
            let form = try await ConsoleForm.read(request)
            let token = form["token"] ?? ""
            do {
                try await services.passwordResets.confirm(
                    token: token, newPassword: form["newPassword"] ?? "", confirmation: form["newPasswordConfirmation"] ?? "",
                    logger: context.logger)
                // Every session ended, this browser's too.
                var response = PasswordResetView.donePage().response()
                response.setCookie(ConsoleSession.clearingCookie(secure: secureCookies))
                return response
            } catch let error as AccountError {
                let refused = error.apiError
                if case .linkNotValid = error { return PasswordResetView.linkRefusedPage(refused.message).response(status: refused.status) }
                return PasswordResetView.newPasswordPage(token: token, problem: refused.message).response(status: refused.status)
            }
        }
    }
}

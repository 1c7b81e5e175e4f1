import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// People (issue 46), `/console/people`: a manager's store's staff and managers
/// (`listStoreStaff`); add someone (`createStoreAccount`), disable and enable an account
/// (`disableStaff`, `enableStaff`: disabling ends their sessions at once), and erase one who has
/// left (`eraseStaff`, asked to confirm first). The same domain services as the API's.
extension ConsoleController {
    func registerPeople(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/people") { request, context in
            try await page(request, context, operation: "listStoreStaff", store: { $0.storeID }) { visit in
                try await peoplePage(visit, notice: nil)
            }
        }
        router.post("/console/people") { request, context in
            try await peopleAction(request, context, operation: "createStoreAccount") { visit, store in
                let form = visit.form
                let role: Role = form.text("role") == "manager" ? .manager : .staff
                // No password given: they are invited by email to choose their own.
                guard let password = form["password"], !password.isEmpty else {
                    let user = try await services.passwordResets.invite(
                        email: form["email"] ?? "", name: form["name"] ?? "", role: role, store: store, by: visit.identity, logger: visit.logger)
                    return
                        "\(user.name) is invited: an email to \(user.email) has a link to choose their password, good for \(PasswordResets.invitationDays) days."
                }
                let user = try await accounts.createStoreAccount(
                    email: form["email"] ?? "", name: form["name"] ?? "", password: password, role: role, store: store, by: visit.identity,
                    logger: visit.logger)
                return "\(user.name) can now sign in as \(user.role.rawValue) with the password you chose. Give it to them yourself."
            }
        }
        router.post("/console/people/:userId/disable") { request, context in
            let userID = context.parameters.get("userId") ?? ""
            return try await peopleAction(request, context, operation: "disableStaff") { visit, store in
                guard let id = UserID(userID) else { throw AccountError.staffNotFound }
                let user = try await accounts.disableStaff(id, at: store, by: visit.identity, logger: visit.logger)
                return "\(user.name) can no longer sign in; every session they had has ended."
            }
        }
        router.post("/console/people/:userId/enable") { request, context in
            let userID = context.parameters.get("userId") ?? ""
            return try await peopleAction(request, context, operation: "enableStaff") { visit, store in
                guard let id = UserID(userID) else { throw AccountError.staffNotFound }
                let user = try await accounts.enableStaff(id, at: store, by: visit.identity, logger: visit.logger)
                return "\(user.name) can sign in again."
            }
        }
        router.post("/console/people/:userId/erase") { request, context in
            let userID = context.parameters.get("userId") ?? ""
            return try await peopleAction(request, context, operation: "eraseStaff") { visit, _ in
                guard let id = UserID(userID) else { throw AccountError.staffNotFound }
                guard visit.form.text("confirm") == "yes" else {
                    throw APIError.invalidField("confirm", "Tick the box to say you mean to erase this account; it cannot be undone.")
                }
                try await services.erasures.eraseStaff(id, by: visit.identity, logger: visit.logger)
                return "The account is erased: its name and email are gone, what they did is kept without them."
            }
        }
    }

    /// A People form: the operation's check for the manager's own store, then `body`, whose
    /// sentence (or the refusal's) is shown above the list.
    private func peopleAction(
        _ request: Request, _ context: AppRequestContext, operation: String,
        _ body: @escaping @Sendable (PageVisit, StoreID) async throws -> String
    ) async throws -> Response {
        try await storeForm(request, context, operation: operation, render: { try await peoplePage($0, notice: $1, status: $2) }) {
            visit, scope in
            guard let store = scope.store else { throw AccessError.forbidden }
            return try await body(visit, store)
        }
    }

    func peoplePage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let store = visit.identity.storeID else { throw AccessError.forbidden }
        let people = try await accounts.staff(of: store, by: visit.identity, logger: visit.logger)
        return PeopleView.page(
            session: visit.session, csrf: ConsolePage.csrfInput(visit.session), notice: notice, people: people, me: visit.identity.userID
        ).response(status: status)
    }
}

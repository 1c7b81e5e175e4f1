import Foundation
import FulfilmentDomain

extension API {
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let signedIn = try await services.accounts.register(
            email: body.email, name: body.name, password: body.password, confirmation: body.passwordConfirmation, logger: logger)
        return .created(.init(body: .json(.init(signedIn))))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let signedIn = try await services.accounts.login(email: body.email, password: body.password, logger: logger)
        return .ok(.init(body: .json(.init(signedIn))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await services.accounts.logout(try Identity.required, logger: logger)
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try Identity.required
        let user = try await services.accounts.me(caller, logger: logger)
        let linked = try await services.providerSignIn.linked(caller, logger: logger)
        let profile = try await services.profiles.profile(of: caller.userID, logger: logger)
        return .ok(.init(body: .json(.init(user, linked: linked, profile: profile))))
    }

    func createStoreAccount(_ input: Operations.CreateStoreAccount.Input) async throws -> Operations.CreateStoreAccount.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId) else { throw AccountError.storeNotFound }
        let role: Role = body.role == .manager ? .manager : .staff
        // Without a password, the person is invited by email to choose their own.
        guard let password = body.password else {
            let user = try await services.passwordResets.invite(
                email: body.email, name: body.name, role: role, store: store, by: try Identity.required, logger: logger)
            return .created(.init(body: .json(.init(user))))
        }
        let user = try await services.accounts.createStoreAccount(
            email: body.email, name: body.name, password: password, role: role, store: store, by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(user))))
    }

    func listStoreStaff(_ input: Operations.ListStoreStaff.Input) async throws -> Operations.ListStoreStaff.Output {
        guard let store = StoreID(input.path.storeId) else { throw AccountError.storeNotFound }
        let people = try await services.accounts.staff(of: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(items: people.map(Components.Schemas.User.init), nextCursor: nil))))
    }

    func disableStaff(_ input: Operations.DisableStaff.Input) async throws -> Operations.DisableStaff.Output {
        guard let store = StoreID(input.path.storeId) else { throw AccountError.storeNotFound }
        guard let user = UserID(input.path.userId) else { throw AccountError.staffNotFound }
        let disabled = try await services.accounts.disableStaff(user, at: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(disabled))))
    }

    func enableStaff(_ input: Operations.EnableStaff.Input) async throws -> Operations.EnableStaff.Output {
        guard let store = StoreID(input.path.storeId) else { throw AccountError.storeNotFound }
        guard let user = UserID(input.path.userId) else { throw AccountError.staffNotFound }
        let enabled = try await services.accounts.enableStaff(user, at: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(enabled))))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        try await services.accounts.changePassword(
            try Identity.required, current: body.currentPassword, new: body.newPassword,
            confirmation: body.newPasswordConfirmation, logger: logger)
        return .noContent(.init())
    }
}

extension Components.Schemas.User {
    init(_ user: User) {
        self.init(
            id: user.id.description, email: user.email, name: user.name,
            role: Components.Schemas.User.RolePayload(rawValue: user.role.rawValue)!,
            storeId: user.storeID?.description, createdAt: user.createdAt, disabledAt: user.disabledAt)
    }
}

extension Components.Schemas.SignedIn {
    init(_ signedIn: Accounts.SignedIn) {
        self.init(user: .init(signedIn.user), token: signedIn.token.text)
    }
}

extension Components.Schemas.UserList: CursorList {}

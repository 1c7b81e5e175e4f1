/// The signed-in caller of the current request, resolved from the bearer token once per
/// request by `AccessMiddleware` and read by handlers through `Identity.current`.
public struct Identity: Sendable, Equatable {
    public var userID: UserID
    public var role: Role
    public var storeID: StoreID?
    public var sessionID: SessionID

    @TaskLocal package static var current: Identity?

    /// The caller, or 401 when the route was reached without one (a policy mistake).
    package static var required: Identity {
        get throws(AccessError) {
            guard let current else { throw .unauthenticated }
            return current
        }
    }

    /// Whether this caller may act on `store`'s data as staff (a manager counts as staff).
    package func worksAt(_ store: StoreID) -> Bool { role.worksInStore && storeID == store }
}

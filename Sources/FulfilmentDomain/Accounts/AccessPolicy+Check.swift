/// The one check behind both doors: `AccessMiddleware` runs it for every OpenAPI operation,
/// and the console runs it for every page with the operation that page stands for, so a page
/// is refused exactly when its API call would be.
extension AccessPolicy {
    /// Throws `unauthenticated` when the operation needs a caller and there is none, `forbidden`
    /// when the role may not call it, when a `.staff`/`.manager` operation names another store,
    /// and when the operation is missing from the table (fail closed).
    package static func authorize(_ operationID: String, identity: Identity?, storeInPath: String?) throws(AccessError) {
        guard let access = operations[operationID] else { throw .forbidden }
        if access == .anyone { return }
        guard let identity else { throw .unauthenticated }
        guard access.allows(identity.role) else { throw .forbidden }
        let storeBound = access == .staff || access == .manager || (access == .storeManagerOrAdmin && identity.role != .admin)
        if storeBound, let store = storeInPath {
            guard let storeID = StoreID(store), identity.worksAt(storeID) else { throw .forbidden }
        }
    }
}

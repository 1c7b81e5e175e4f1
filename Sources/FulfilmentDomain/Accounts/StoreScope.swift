import PostgresNIO

/// Which store's rows a caller may touch, taken from the caller alone: staff and managers their
/// own store's, the chain's admin (on the few routes open to them) every store's.
///
/// Every store-scoped query takes one and binds it into its `WHERE` (`AND o.store_id = \(scope)`
/// for one store, or `AND \(scope, column: "w.store_id")` where an admin may pass), so another
/// store's row is simply not found: a new route cannot forget the check, because the query
/// cannot be called without a scope. There is no way to build one from a store id a client sent.
package struct StoreScope: Sendable, Equatable {
    /// The store whose rows are reachable; nil for the chain's admin (every store).
    package let store: StoreID?

    /// Staff or a manager: their store. Anyone else is refused (403), as `AccessPolicy` would
    /// have refused them already; this is the second lock, not the first.
    package init(staff identity: Identity) throws(AccessError) {
        guard identity.role.worksInStore, let store = identity.storeID else { throw .forbidden }
        self.store = store
    }

    /// A manager: their store; the chain's admin: every store. Anyone else is refused (403).
    package init(managerOrAdmin identity: Identity) throws(AccessError) {
        switch identity.role {
        case .admin: store = nil
        case .manager:
            guard let store = identity.storeID else { throw .forbidden }
            self.store = store
        default: throw .forbidden
        }
    }

    /// Whether this scope reaches every store (the chain's admin).
    package var isChainWide: Bool { store == nil }

    /// Whether a row of `store` is within this scope (for a row read before the scope is
    /// known, such as the order a pickup token names).
    package func contains(_ store: StoreID?) -> Bool {
        self.store == nil || (store != nil && self.store == store)
    }
}

extension PostgresQuery.StringInterpolation {
    /// A one-store scope as a bound store id: `WHERE o.store_id = \(scope)`. A chain-wide scope
    /// binds NULL, which matches no row (`=` with NULL is never true): use
    /// `\(scope, column:)` where the chain's admin may reach the rows.
    package mutating func appendInterpolation(_ scope: StoreScope) {
        appendInterpolation(scope.store?.rawValue)
    }

    /// `column = <the scope's store>` for one store, `true` for the chain's admin. `column` is
    /// the statement's own text (a literal), never a client's.
    package mutating func appendInterpolation(_ scope: StoreScope, column: StaticString) {
        if let store = scope.store {
            appendInterpolation(unescaped: "\(column) = ")
            appendInterpolation(store.rawValue)
        } else {
            appendInterpolation(unescaped: "true")
        }
    }
}

import FulfilmentDomain

extension API {
    /// A `/stores/{storeId}/.../{productId}` route's store and product: the store in the path is
    /// the caller's (`AccessMiddleware` refused any other with 403), so the scope is taken from
    /// who they are, for the queries to bind; a malformed product id names nothing (404).
    func storeProduct(_ storeId: String, _ productId: String) throws -> (StoreScope, ProductID) {
        _ = try StoreID.parse(storeId, notFound: .storeNotFound)
        let product = try ProductID.parse(productId, notFound: .productNotFound)
        return (try StoreScope(staff: Identity.required), product)
    }
}

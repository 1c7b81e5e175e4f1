/// Who may call what: the single table of authorisation, keyed by the OpenAPI operationId.
///
/// `AccessMiddleware` enforces it before any handler runs. An operation missing from this
/// table is refused (fail closed), and a test checks every operation in the contract is here.
/// Routes with a `storeId` path parameter and `.staff`/`.manager` access (and a manager on a
/// `.storeManagerOrAdmin` route) are further limited to the caller's own store here; routes that reach a store through another id (an order, a
/// pick list, a webhook endpoint) are limited in their SQL: the service takes the caller's
/// `StoreScope` and its query binds it into the `WHERE`, so another store's row is simply not
/// found (404). `CrossStoreAccessTests` calls every such route as another store's staff.
///
/// The chain's admin (issue 13) keeps what every store shares: stores, their aisles and the
/// catalogue. An admin works in no store, so `.staff` and `.manager` routes refuse them (403),
/// reads included: an admin sees a store's public face (store, aisles, locate, products) like
/// anyone, and is given a store account to work in one. That keeps one reading of "whose store
/// is this" (`StoreScope`) instead of a second, read-only kind of access in every handler.
package enum Access: Sendable, Equatable {
    /// Anyone, signed in or not.
    case anyone
    /// Any signed-in user.
    case signedIn
    /// A signed-in customer.
    case customer
    /// Staff or a manager (of the store in the path, if there is one).
    case staff
    /// A manager (of the store in the path, if there is one).
    case manager
    /// The chain's admin (any store in the path).
    case admin
    /// A manager or the chain's admin; what each reaches is scoped in the handler's SQL (a
    /// manager their own store's, an admin all), as no store is in the path.
    case managerOrAdmin
    /// The manager of the store in the path, or the chain's admin (any store): a store's own data
    /// that the chain also keeps (its catalogue imports). Another store's manager is refused here,
    /// before the body is read; the handler's SQL binds the store and the caller's scope as well.
    case storeManagerOrAdmin

    package func allows(_ role: Role) -> Bool {
        switch self {
        case .anyone, .signedIn: true
        case .customer: role == .customer
        case .staff: role.worksInStore
        case .manager: role == .manager
        case .admin: role == .admin
        case .managerOrAdmin, .storeManagerOrAdmin: role == .manager || role == .admin
        }
    }
}

package enum AccessPolicy {
    /// Public reads (`.anyone`) that answer a signed-in caller more when a token is presented:
    /// hidden community content to its author and moderators, a news draft to its store's staff
    /// (issue 31). The token is resolved as on any route; one that admits nobody reads as anonymous.
    package static let publicReadsKnowingCaller: Set<String> = [
        "getNews", "getNewsImage", "listNewsComments", "listRecipes", "getRecipe", "getRecipeImage", "listRecipeComments", "listReviews",
        "locateProducts",
    ]

    package static let operations: [String: Access] = [
        // Operations
        "getHealth": .anyone,
        "getReadiness": .anyone,
        // Pickup keys: public, offline scanners fetch them to verify receipts (issue 3)
        "listPickupKeys": .anyone,
        // Accounts
        "register": .anyone,
        "login": .anyone,
        "logout": .signedIn,
        "getMe": .signedIn,
        // Messages (issue 44): a reset is asked for and used without a session (the link is the
        // proof); so is confirming a new address. One's own name, address and preferences.
        "updateMe": .signedIn,
        "requestPasswordReset": .anyone,
        "confirmPasswordReset": .anyone,
        "confirmEmailChange": .anyone,
        // Identity providers (issue 33): the list and the token exchange are how one signs in;
        // links are one's own.
        "listIdentityProviders": .anyone,
        "exchangeIdToken": .anyone,
        "linkIdentity": .signedIn,
        "unlinkIdentity": .signedIn,
        // Privacy (issue 32): one's own data and account; the admin erases customers on request,
        // a manager their store's staff (bound in the SQL too).
        "exportMe": .signedIn,
        "eraseMe": .signedIn,
        "eraseUser": .admin,
        "eraseStaff": .manager,
        "createStoreAccount": .manager,
        "listStoreStaff": .manager,
        "disableStaff": .manager,
        "enableStaff": .manager,
        "changePassword": .signedIn,
        // Pick lists (store checked by path, or by the pick list's query through the caller's scope)
        "createPickList": .staff,
        "listPickLists": .staff,
        "getPickList": .staff,
        "getPickListHTML": .staff,
        "getPickListText": .staff,
        "recordPick": .staff,
        "completePickList": .staff,
        // Catalogue (issue 5): browsing is public; stock and locations only at the manager's own
        // store. The catalogue is shared by every store, so since issue 13 the chain's admins
        // keep it (and the stores and aisles), not any one store's manager.
        "listStores": .anyone,
        "getStore": .anyone,
        "listAisles": .anyone,
        "createStore": .admin,
        // Its manager keeps a store's details; the chain names it (`Stores.checkChange`).
        "updateStore": .storeManagerOrAdmin,
        "createAisle": .admin,
        "updateAisle": .admin,
        "deleteAisle": .admin,
        "searchProducts": .anyone,
        "getProduct": .anyone,
        "getProductByBarcode": .anyone,
        "getProductImage": .anyone,
        "getProductGalleryImage": .anyone,
        "locateProducts": .anyone,
        // Listings (issue 26): public, as browsing is
        "listCategories": .anyone,
        "listBestPrices": .anyone,
        "createProduct": .admin,
        "updateProduct": .admin,
        "discontinueProduct": .admin,
        "uploadProductImage": .admin,
        // The gallery and the categories' words (issue 45): the chain's catalogue
        "uploadProductGalleryImage": .admin,
        "updateProductGalleryImage": .admin,
        "deleteProductGalleryImage": .admin,
        "putCategoryDetails": .admin,
        "listStock": .manager,
        "setStock": .manager,
        "adjustStock": .manager,
        "listStockMovements": .manager,
        "listStockChecks": .staff,
        "setStockLocation": .manager,
        "clearStockLocation": .manager,
        "listFavourites": .customer,
        "addFavourite": .customer,
        "removeFavourite": .customer,
        "chooseStore": .customer,
        // Cart, checkout, orders, collections, payments (issue 6). Routes reaching a store
        // through an order id bind the caller's `StoreScope` into their SQL; a customer asking
        // for another's order or receipt gets 404. The webhook authenticates by its HMAC signature.
        "getCart": .customer,
        "setCartStore": .customer,
        "clearCart": .customer,
        "setCartItem": .customer,
        "removeCartItem": .customer,
        // Coupons (issue 26): a customer puts one on their cart (throttled per account); a store's
        // manager makes, lists and ends the store's (`Coupons`, the caller's store bound into the
        // SQL), the chain's admin the chain's.
        "applyCartCoupon": .customer,
        "removeCartCoupon": .customer,
        "listStoreCoupons": .manager,
        "createStoreCoupon": .manager,
        "endStoreCoupon": .manager,
        "listCoupons": .admin,
        "createCoupon": .admin,
        "endCoupon": .admin,
        "checkout": .customer,
        "listOrders": .customer,
        "getOrder": .signedIn,
        // The order's customer or staff of its store (Orders.order(_:visibleTo:)).
        "listOrderMessages": .signedIn,
        "listOrderPayments": .signedIn,
        "getSalesReport": .managerOrAdmin,
        // A report of the store in the path (issue 46): its manager, or the chain's admin. Another
        // store's manager is refused here; the SQL binds the caller's scope as well.
        "getOnTimeReport": .storeManagerOrAdmin,
        "getDeskReport": .storeManagerOrAdmin,
        "getPickingReport": .storeManagerOrAdmin,
        "getCouponsReport": .storeManagerOrAdmin,
        "getProductsReport": .storeManagerOrAdmin,
        // CSV imports (issue 46): a store's manager their store's prices, places and stock; the
        // chain's admin the catalogue with any store's stock.
        "createCatalogueImport": .storeManagerOrAdmin,
        "getCatalogueImport": .storeManagerOrAdmin,
        "startCatalogueImport": .storeManagerOrAdmin,
        "cancelCatalogueImport": .storeManagerOrAdmin,
        // The Mail page: a manager their store's messages, the admin every one (bound in the SQL).
        "listMessages": .managerOrAdmin,
        "getMessage": .managerOrAdmin,
        // The receipt is the customer's alone (issue 10): staff re-issue a lost one, audited.
        "getReceiptPng": .customer,
        "listCollectorPasses": .signedIn,
        "createCollectorPass": .customer,
        "revokeCollectorPass": .customer,
        "getCollectorPassPng": .customer,
        "getReceiptSvg": .customer,
        "reissueReceipt": .staff,
        "cancelOrder": .customer,
        // Issue 48: the customer changes their own order's lines until it joins a pick list.
        "changeOrderLines": .customer,
        "transitionOrder": .staff,
        // Events (issue 14): the ready message again, and live streams (order: checked in the handler)
        "notifyOrderReady": .staff,
        "streamOrderEvents": .signedIn,
        "streamStoreEvents": .staff,
        "listStoreOrders": .staff,
        "collectOrder": .staff,
        "previewCollection": .staff,
        "findCollection": .staff,
        "recordPayment": .staff,
        // Money owed back (issue 13): a manager of the order's store records a refund paid at the
        // desk, checked in `Refunds`; the provider's `refund.succeeded` comes by the webhook.
        "recordRefund": .manager,
        // Age-restricted goods (issue 11): staff of the order's store, checked in `RestrictedLines`.
        "removeRestrictedLines": .staff,
        // Minimum ages (issue 24): the chain's holds in every store and is its admin's to set;
        // a store's manager may add a stricter one for their store (never a lower one, checked in
        // `MinimumAges`), and its staff see what holds there.
        "setProductMinimumAge": .admin,
        "getStoreMinimumAge": .staff,
        "setStoreMinimumAge": .manager,
        // Prices per store (issue 26): a store's manager sets or removes its own price of a
        // product (`Prices`, the caller's store bound into the SQL); its staff see what holds.
        "getStorePrice": .staff,
        "setStorePrice": .manager,
        "deleteStorePrice": .manager,
        // Sales (issue 26): a store's manager puts its products on sale and ends sales (`Sales`,
        // the caller's store bound into the SQL); its staff see them, as they see its prices.
        // Community (issue 31): news by the store's manager, recipes, comments and reviews by
        // their authors (checked in their SQL), moderation by a manager (their store's content,
        // bound in the SQL) or the chain's admin.
        "listNews": .anyone,
        "getNews": .anyone,
        "createNews": .manager,
        "updateNews": .manager,
        "deleteNews": .manager,
        "getNewsImage": .anyone,
        "uploadNewsImage": .manager,
        "getRecipeImage": .anyone,
        "uploadRecipeImage": .signedIn,
        "listNewsComments": .anyone,
        "createNewsComment": .signedIn,
        "listRecipes": .anyone,
        "createRecipe": .signedIn,
        "getRecipe": .anyone,
        "updateRecipe": .signedIn,
        "deleteRecipe": .signedIn,
        "addRecipeToCart": .customer,
        "listRecipeComments": .anyone,
        "createRecipeComment": .signedIn,
        "deleteComment": .signedIn,
        "listReviews": .anyone,
        "putReview": .customer,
        "deleteReview": .customer,
        "markReviewHelpful": .signedIn,
        "reportContent": .signedIn,
        "listReports": .managerOrAdmin,
        "hideContent": .managerOrAdmin,
        "restoreContent": .managerOrAdmin,
        "listBlocks": .managerOrAdmin,
        "blockAuthor": .managerOrAdmin,
        "unblockAuthor": .managerOrAdmin,
        "listSales": .staff,
        "createSale": .manager,
        "endSale": .manager,
        // Substitutions and arrival (issue 27): staff give a substitute from their store's pick
        // list; the order's customer, or staff of its store at the desk, decide on it (checked in
        // `decide_substitution`: another's order is 404); the customer says "I'm here"; a
        // store's manager sets its policy and its staff read it.
        "createSubstitution": .staff,
        "decideSubstitution": .signedIn,
        "recordArrival": .customer,
        "getSubstitutionPolicy": .staff,
        "setSubstitutionPolicy": .manager,
        "receivePaymentWebhook": .anyone,
        // Pickup slots (issue 13): the calendar is the store's managers' to set, its staff read
        // it; anyone may see the bookable slots; a customer moves only their own order (checked
        // in `PickupSlots.move`, another's is 404).
        "getStoreCalendar": .staff,
        "setStoreCalendar": .manager,
        "getStoreRota": .storeManagerOrAdmin,
        "setStoreRota": .storeManagerOrAdmin,
        "listPickupSlots": .anyone,
        "changePickupSlot": .customer,
        // Bags (issue 47): a store's manager keeps its staging places, its staff read them and
        // stage bags (the bag and place are found in the caller's `StoreScope`: another's is 404).
        "listStagingPlaces": .staff,
        "setStagingPlaces": .manager,
        "stageBag": .staff,
        // Webhooks (issue 14): a manager keeps their store's endpoints, an admin any store's and
        // the chain's; their `StoreScope` is in every query (another store's is 404).
        "createWebhook": .managerOrAdmin,
        "listWebhooks": .managerOrAdmin,
        "getWebhook": .managerOrAdmin,
        "updateWebhook": .managerOrAdmin,
        "deleteWebhook": .managerOrAdmin,
        "listWebhookDeliveries": .managerOrAdmin,
        "redeliverWebhook": .managerOrAdmin,
        "testWebhook": .managerOrAdmin,
        "rotateWebhookSecret": .managerOrAdmin,
    ]

    /// The operations whose handler resolves the bearer token in its own first statement
    /// (`Caller`, `session_caller`) instead of the middleware spending a round trip on it:
    /// filling the cart, the checkout and the scan at the desk, where every round trip is time a
    /// queue waits. Each admits the caller by this table before it uses anything else that
    /// statement read; one that writes writes only for a caller it will admit (`who`).
    package static let resolvedInStatement: Set<String> = ["setCartItem", "checkout", "collectOrder", "previewCollection"]
}

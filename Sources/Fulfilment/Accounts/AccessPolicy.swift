/// Who may call what: the single table of authorisation, keyed by the OpenAPI operationId.
///
/// `AccessMiddleware` enforces it before any handler runs. An operation missing from this
/// table is refused (fail closed), and a test checks every operation in the contract is here.
/// Routes with a `storeId` path parameter and `.staff`/`.manager` access are further limited
/// to the caller's own store; routes that reach a store through another id (an order, a pick
/// list) check it in the handler with `Identity.worksAt(_:)`.
enum Access: Sendable, Equatable {
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

    func allows(_ role: Role) -> Bool {
        switch self {
        case .anyone, .signedIn: true
        case .customer: role == .customer
        case .staff: role.worksInStore
        case .manager: role == .manager
        }
    }
}

enum AccessPolicy {
    static let operations: [String: Access] = [
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
        "createStoreAccount": .manager,
        "disableStaff": .manager,
        "enableStaff": .manager,
        "changePassword": .signedIn,
        // Pick lists (store checked by path, or in the handler through the pick list)
        "createPickList": .staff,
        "listPickLists": .staff,
        "getPickList": .staff,
        "getPickListHTML": .staff,
        "getPickListText": .staff,
        "recordPick": .staff,
        "completePickList": .staff,
        // Catalogue (issue 5): browsing is public; the catalogue is shared by every store, so
        // any manager edits products; stock and locations only at the manager's own store.
        "listStores": .anyone,
        "getStore": .anyone,
        "listAisles": .anyone,
        "searchProducts": .anyone,
        "getProduct": .anyone,
        "getProductByBarcode": .anyone,
        "getProductImage": .anyone,
        "locateProducts": .anyone,
        "createProduct": .manager,
        "updateProduct": .manager,
        "discontinueProduct": .manager,
        "uploadProductImage": .manager,
        "listStock": .manager,
        "setStock": .manager,
        "adjustStock": .manager,
        "listStockMovements": .manager,
        "setStockLocation": .manager,
        "clearStockLocation": .manager,
        "listFavourites": .customer,
        "addFavourite": .customer,
        "removeFavourite": .customer,
        "chooseStore": .customer,
        // Cart, checkout, orders, collections, payments (issue 6). Routes reaching a store
        // through an order id check `Identity.worksAt` in the handler; a customer asking for
        // another's order or receipt gets 404. The webhook authenticates by its HMAC signature.
        "getCart": .customer,
        "setCartStore": .customer,
        "clearCart": .customer,
        "setCartItem": .customer,
        "removeCartItem": .customer,
        "checkout": .customer,
        "listOrders": .customer,
        "getOrder": .signedIn,
        // The receipt is the customer's alone (issue 10): staff re-issue a lost one, audited.
        "getReceiptPng": .customer,
        "getReceiptSvg": .customer,
        "reissueReceipt": .staff,
        "cancelOrder": .customer,
        "transitionOrder": .staff,
        "listStoreOrders": .staff,
        "collectOrder": .staff,
        "previewCollection": .staff,
        "recordPayment": .staff,
        // Age-restricted goods (issue 11): staff of the order's store, checked in `RestrictedLines`.
        "removeRestrictedLines": .staff,
        "setProductMinimumAge": .manager,
        "receivePaymentWebhook": .anyone,
        // Pickup slots (issue 13): the calendar is the store's managers' to set, its staff read
        // it; anyone may see the bookable slots; a customer moves only their own order (checked
        // in `PickupSlots.move`, another's is 404).
        "getStoreCalendar": .staff,
        "setStoreCalendar": .manager,
        "listPickupSlots": .anyone,
        "changePickupSlot": .customer,
    ]
}

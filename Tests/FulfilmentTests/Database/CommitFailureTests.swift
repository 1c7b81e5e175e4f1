import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Success means committed (issue 42): when PostgreSQL refuses a write's commit (a full disk, a
/// deferred constraint), the client is never told it succeeded, and nothing of it is stored.
///
/// Every operation of the contract that writes (POST, PUT, PATCH, DELETE) is sent here twice, on
/// objects made for it: once while every commit fails (``CommitFault``: a deferred trigger on
/// every table, so the failure comes at COMMIT, after the statement's CommandComplete), which must
/// be answered `503` with every table as it was; then again without the fault, which must succeed
/// and change something, proving the request is one that writes and is not refused earlier for
/// some other reason. The operations are read from the contract and the senders checked against
/// the access table, as `CrossStoreAccessTests` does: a new writing route fails
/// ``everyWriteHasARecipe()`` until it has a recipe here, and is then exercised like the rest.
///
/// Before `SQLRun` confirmed a lone statement's commit, 38 of these operations were answered 2xx
/// here (the scan, sign-out, erasure, the cart, favourites, prices, coupons, news, moderation...)
/// with nothing stored; those inside `BEGIN … COMMIT` already answered `503 storage_full`.
@Suite struct CommitFailureTests {
    typealias ContractOperation = CrossStoreAccessTests.ContractOperation

    /// Who sends a recipe's request; checked against `AccessPolicy`.
    enum Sender: String, Sendable {
        case anyone, customer, staff, manager, admin

        var role: Role? {
            switch self {
            case .anyone: nil
            case .customer: .customer
            case .staff: .staff
            case .manager: .manager
            case .admin: .admin
            }
        }
    }

    /// Where a recipe runs: each bench is a service and database of its own, and the benches run
    /// side by side. The identity provider's bench also runs a real OpenID provider
    /// (`withIdentityProvider`), for the routes that verify its ID tokens.
    enum Bench: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case anyone, customer, staff, manager, admin, identityProvider
        var testDescription: String { rawValue }
    }

    /// One request, as a recipe makes it; sent twice, byte for byte the same.
    struct Call: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var json: JSONValue?
        var rawBody: String?
        /// The body is `tinyPNG`, sent as `image/png` (the image uploads).
        var png: Bool
        var token: String?
        var headers: HTTPFields

        init(
            _ method: HTTPRequest.Method, _ path: String, json: JSONValue? = nil, rawBody: String? = nil, png: Bool = false,
            token: String? = nil, headers: HTTPFields = [:]
        ) {
            (self.method, self.path, self.json, self.rawBody, self.png, self.token, self.headers) =
                (method, path, json, rawBody, png, token, headers)
        }

        func send(on app: TestApp) async throws -> TestReply {
            if png { return try await app.upload(path, bytes: tinyPNG, contentType: "image/png", token: token) }
            return try await app.request(method, path, json: json, rawBody: rawBody, token: token, headers: headers)
        }
    }

    /// How to send one operation so that it succeeds: `make` builds what the request needs (with
    /// the fault off) and returns the request.
    struct Recipe: Sendable {
        var sender: Sender
        var bench: Bench
        /// A POST that reads only (the scan's preview): answered 2xx with or without the fault,
        /// and changing nothing either way.
        var readsOnly = false
        var make: @Sendable (Shop) async throws -> Call
    }

    // MARK: - The tests

    /// Every writing operation of the contract, in the contract's order.
    static func writingOperations() -> [ContractOperation] {
        CrossStoreAccessTests.contractOperations().filter { $0.method != .get }
    }

    @Test("every operation of the contract that writes has a recipe here, sent by someone the access table admits")
    func everyWriteHasARecipe() {
        // The walk of the contract found every operation the access table knows, so none is missed here.
        #expect(Set(CrossStoreAccessTests.contractOperations().map(\.id)) == Set(AccessPolicy.operations.keys))
        let writes = Self.writingOperations()
        #expect(!writes.isEmpty)
        let recipes = Self.recipes
        #expect(recipes.count == Self.recipeTables.map(\.count).reduce(0, +), "an operation has two recipes")
        for operation in writes {
            guard let recipe = recipes[operation.id] else {
                Issue.record(
                    "\(operation) writes and has no recipe in CommitFailureTests: add one whose request succeeds (2xx) without the fault")
                continue
            }
            let access = AccessPolicy.operations[operation.id]
            let admitted = recipe.sender.role.map { access?.allows($0) == true } ?? (access == .anyone)
            #expect(
                admitted, "\(operation) is sent by \(recipe.sender.rawValue), whom the access table does not admit (\(String(describing: access)))")
        }
        let stale = Set(recipes.keys).subtracting(writes.map(\.id)).sorted()
        #expect(stale == [], "recipes for operations the contract does not have (or no longer writes): \(stale)")
    }

    @Test(
        "a commit the database refuses is answered 503 and stores nothing, for every writing operation; the same request succeeds once commits work again",
        arguments: Bench.allCases)
    func commitRefused(bench: Bench) async throws {
        let planned = Self.writingOperations().compactMap { operation in
            Self.recipes[operation.id].flatMap { $0.bench == bench ? (operation, $0) : nil }
        }
        #expect(!planned.isEmpty, "no operation runs on the \(bench.rawValue) bench")
        if bench == .identityProvider {
            try await withIdentityProvider { fixture in
                try await Self.exercise(planned, on: fixture.app, provider: fixture)
            }
        } else {
            try await withApp { app in try await Self.exercise(planned, on: app, provider: nil) }
        }
    }

    /// Installs the fault, builds the shop, and sends each operation as its recipe says.
    static func exercise(_ planned: [(ContractOperation, Recipe)], on app: TestApp, provider: ProviderFixture?) async throws {
        let fault = try await app.installCommitFault()
        let shop = try await Shop.make(app, provider: provider)
        for (operation, recipe) in planned {
            do {
                try await exercise(operation, recipe, in: shop, fault: fault)
            } catch {
                Issue.record("\(operation): \(error)")
            }
        }
    }

    /// The fault on: the request is refused (503) and no table changes. The fault off: the same
    /// request succeeds and changes something.
    static func exercise(_ operation: ContractOperation, _ recipe: Recipe, in shop: Shop, fault: CommitFault) async throws {
        let call = try await recipe.make(shop)
        guard call.method == operation.method, Self.path(call.path, matches: operation.path) else {
            Issue.record("\(operation): its recipe sends \(call.method) \(call.path)")
            return
        }
        try await fault.waitForEventsNumbered()
        // On before the first snapshot: from then on nothing but the request can commit a change,
        // not even the service's background work (event numbering, webhook deliveries).
        try await fault.turnOn()
        let before: [String: String]
        let faulted: TestReply
        let during: [String: String]
        do {
            before = try await fault.snapshot()
            faulted = try await call.send(on: shop.app)
            during = try await fault.snapshot()
        } catch {
            try await fault.turnOff()
            throw error
        }
        try await fault.turnOff()
        let clean = try await call.send(on: shop.app)
        let after = try await fault.snapshot()

        let refused = CommitFault.changed(before, during)
        let wrote = CommitFault.changed(during, after)
        let answer = "\(faulted.status.code) \(faulted.errorCode ?? "") \(faulted.text.prefix(200))"
        if recipe.readsOnly {
            #expect((200..<300).contains(faulted.status.code), "\(operation) reads only, yet answered \(answer) while commits failed")
            #expect(wrote == [], "\(operation) is listed as reading only, yet changed \(wrote): move it to the writing recipes")
        } else {
            #expect(
                faulted.status == .serviceUnavailable,
                "\(operation) answered \(answer) when its commit failed: a refused commit is 503, never a success or a 500")
            #expect(faulted.headers[.retryAfter] != nil, "\(operation) answered \(answer) without Retry-After")
            #expect(wrote != [], "\(operation) changed nothing without the fault: its recipe must be a request that writes")
        }
        #expect(refused == [], "\(operation) changed \(refused) although its commit failed (answered \(faulted.status.code))")
        #expect(
            (200..<300).contains(clean.status.code),
            "\(operation) without the fault answered \(clean.status.code) \(clean.text.prefix(300)): its recipe must succeed, or the fault proves nothing"
        )
    }

    /// Whether `path` is an instance of the contract's `template` (`{name}` matches any segment).
    static func path(_ path: String, matches template: String) -> Bool {
        let given = path.split(separator: "?", maxSplits: 1)[0].split(separator: "/", omittingEmptySubsequences: false)
        let wanted = template.split(separator: "/", omittingEmptySubsequences: false)
        return given.count == wanted.count && zip(given, wanted).allSatisfy { $1.hasPrefix("{") || $0 == $1 }
    }

    // MARK: - The recipes

    static let recipeTables: [[String: Recipe]] = [anyoneRecipes, customerRecipes, staffRecipes, managerRecipes, adminRecipes, providerRecipes]

    /// Every recipe by operation id (an id in two tables keeps its first; the coverage test counts them).
    static let recipes: [String: Recipe] = recipeTables.reduce(into: [:]) { all, table in all.merge(table) { first, _ in first } }

    static func anyone(_ make: @escaping @Sendable (Shop) async throws -> Call) -> Recipe {
        Recipe(sender: .anyone, bench: .anyone, make: make)
    }

    static func customer(_ make: @escaping @Sendable (Shop) async throws -> Call) -> Recipe {
        Recipe(sender: .customer, bench: .customer, make: make)
    }

    static func staff(readsOnly: Bool = false, _ make: @escaping @Sendable (Shop) async throws -> Call) -> Recipe {
        Recipe(sender: .staff, bench: .staff, readsOnly: readsOnly, make: make)
    }

    static func manager(readsOnly: Bool = false, _ make: @escaping @Sendable (Shop) async throws -> Call) -> Recipe {
        Recipe(sender: .manager, bench: .manager, readsOnly: readsOnly, make: make)
    }

    static func admin(_ make: @escaping @Sendable (Shop) async throws -> Call) -> Recipe {
        Recipe(sender: .admin, bench: .admin, make: make)
    }

    /// Signing in with a new account, signing in, and the payment provider's signed event.
    static let anyoneRecipes: [String: Recipe] = [
        "requestPasswordReset": anyone { shop in
            let email = "forgot-\(tag())@example.com"
            _ = try await shop.app.registerCustomer(email: email)
            return Call(.post, "/v1/password-reset", json: ["email": .string(email)])
        },
        "confirmPasswordReset": anyone { shop in
            let customer = try await shop.app.registerCustomer()
            let token = try await shop.app.linkRow(.passwordReset, for: customer.userID)
            return Call(.post, "/v1/password-reset/confirm", json: ["token": .string(token), "newPassword": "a brand new password"])
        },
        "confirmEmailChange": anyone { shop in
            let customer = try await shop.app.registerCustomer()
            let token = try await shop.app.linkRow(.emailChange, for: customer.userID)
            return Call(.post, "/v1/me/email/confirm", json: ["token": .string(token)])
        },
        "register": anyone { _ in
            let email = "new-\(tag())@example.com"
            return Call(
                .post, "/v1/auth/register",
                json: [
                    "email": .string(email), "name": "New Customer", "password": "long enough password",
                    "passwordConfirmation": "long enough password",
                ])
        },
        "login": anyone { shop in
            let email = "back-\(tag())@example.com"
            _ = try await shop.app.registerCustomer(email: email, password: "correct horse")
            return Call(.post, "/v1/auth/login", json: ["email": .string(email), "password": "correct horse"])
        },
        "receivePaymentWebhook": anyone { shop in
            let (_, order, _) = try await shop.order(method: "prepaid")
            let body = try paymentEvent("payment.succeeded", order: order)
            let timestamp = String(Int(Date().timeIntervalSince1970))
            let signature = PaymentWebhookSignature.signature(secret: TestApp.webhookSecret, timestamp: timestamp, body: Array(body.utf8))
            return Call(
                .post, "/v1/payments/webhook", rawBody: body,
                headers: [PaymentWebhookSignature.timestampHeader: timestamp, PaymentWebhookSignature.signatureHeader: signature])
        },
    ]

    /// A customer's own account, cart, orders and writing.
    static let customerRecipes: [String: Recipe] = [
        "updateMe": customer { shop in
            Call(
                .patch, "/v1/me", json: ["name": "Ada Corrected", "email": .string("new-\(tag())@example.com")],
                token: try await shop.customer().token)
        },
        "unlinkIdentity": customer { shop in
            let customer = try await shop.customer()
            let provider = try await sql(
                "INSERT INTO identity_providers (issuer, name, client_id) VALUES ($1, 'Test ID', 'shop-web') RETURNING id",
                ["https://id-\(tag()).example"], on: shop.app.database)[0][0]!
            _ = try await sql(
                "INSERT INTO identity_links (provider_id, subject, user_id, email) VALUES ($1, $2, $3, $4)",
                [provider, "subject-\(tag())", customer.userID, "linked-\(tag())@id.example"], on: shop.app.database)
            return Call(.delete, "/v1/me/identities/\(provider)", token: customer.token)
        },
        "logout": customer { shop in
            Call(.post, "/v1/auth/logout", token: try await shop.customer().token)
        },
        "eraseMe": customer { shop in
            Call(.delete, "/v1/me", json: ["password": "correct horse"], token: try await shop.customer().token)
        },
        "changePassword": customer { shop in
            Call(
                .post, "/v1/me/password",
                json: ["currentPassword": "correct horse", "newPassword": "a new password", "newPasswordConfirmation": "a new password"],
                token: try await shop.customer().token)
        },
        "addFavourite": customer { shop in
            Call(.put, "/v1/favourites/\(try await shop.product())", token: try await shop.customer().token)
        },
        "removeFavourite": customer { shop in
            let (customer, product) = (try await shop.customer(), try await shop.product())
            try await expect2xx(shop.app.request(.put, "/v1/favourites/\(product)", token: customer.token), "a favourite")
            return Call(.delete, "/v1/favourites/\(product)", token: customer.token)
        },
        "chooseStore": customer { shop in
            Call(.put, "/v1/me/store", json: ["storeId": .string(shop.store)], token: try await shop.customer().token)
        },
        "setCartStore": customer { shop in
            Call(.put, "/v1/cart", json: ["storeId": .string(shop.store)], token: try await shop.customer().token)
        },
        "clearCart": customer { shop in
            Call(.delete, "/v1/cart", token: try await shop.filledCart().customer.token)
        },
        "setCartItem": customer { shop in
            let customer = try await shop.customer()
            try await shop.app.chooseStore(customer, shop.store)
            return Call(.put, "/v1/cart/items/\(try await shop.product())", json: ["quantity": 2], token: customer.token)
        },
        "removeCartItem": customer { shop in
            let (customer, product) = try await shop.filledCart()
            return Call(.delete, "/v1/cart/items/\(product)", token: customer.token)
        },
        "applyCartCoupon": customer { shop in
            Call(.put, "/v1/cart/coupon", json: ["code": .string(shop.coupon)], token: try await shop.filledCart().customer.token)
        },
        "removeCartCoupon": customer { shop in
            let customer = try await shop.filledCart().customer
            try await expect2xx(
                shop.app.request(.put, "/v1/cart/coupon", json: ["code": .string(shop.coupon)], token: customer.token), "the coupon on the cart")
            return Call(.delete, "/v1/cart/coupon", token: customer.token)
        },
        "checkout": customer { shop in
            Call(
                .post, "/v1/checkout", json: ["paymentMethod": "pay_at_collection"], token: try await shop.filledCart().customer.token,
                headers: [HTTPField.Name("Idempotency-Key")!: UUID().uuidString])
        },
        "cancelOrder": customer { shop in
            let (customer, order, _) = try await shop.order()
            return Call(.post, "/v1/orders/\(try id(order))/cancel", token: customer.token)
        },
        "createCollectorPass": customer { shop in
            let (customer, order, _) = try await shop.order()
            return Call(.post, "/v1/orders/\(try id(order))/collectors", json: ["name": "Devon Brown"], token: customer.token)
        },
        "revokeCollectorPass": customer { shop in
            let (customer, order, _) = try await shop.order()
            let pass = try await expect2xx(
                shop.app.request(.post, "/v1/orders/\(try id(order))/collectors", json: ["name": "Devon Brown"], token: customer.token),
                "a collector pass")
            return Call(.delete, "/v1/orders/\(try id(order))/collectors/\(try id(pass.json))", token: customer.token)
        },
        "changeOrderLines": customer { shop in
            // Issue 48: one more of the line it has, and a new product added.
            let (customer, order, product) = try await shop.order()
            let added = try await shop.product()
            return Call(
                .patch, "/v1/orders/\(try id(order))/lines",
                json: ["lines": [["productId": .string(product), "quantity": 2], ["productId": .string(added), "quantity": 1]]],
                token: customer.token)
        },
        "changePickupSlot": customer { shop in
            // A store of its own: a calendar makes a slot required at every checkout there.
            let (store, _) = try await shop.app.storeWithCalendar()
            let slots = try await shop.app.pickupSlots(store: store, days: 7).json["items"].array
                .filter { ($0["remaining"].int ?? 0) > 0 }.compactMap { $0["start"].string }
            guard slots.count >= 2 else { throw TestSetupError("fewer than two bookable slots: \(slots)") }
            let (customer, _) = try await shop.app.shopper(at: store)
            let order = try await expect2xx(shop.app.checkout(customer, slot: slots[0]), "a checkout in the first slot")
            return Call(.put, "/v1/orders/\(try id(order.json))/pickup-slot", json: ["pickupSlot": .string(slots[1])], token: customer.token)
        },
        "recordArrival": customer { shop in
            let (customer, order, _) = try await shop.packagedOrder()
            return Call(.post, "/v1/orders/\(try id(order))/arrival", json: ["bay": "3", "vehicle": "Blue Corolla"], token: customer.token)
        },
        "decideSubstitution": customer { shop in
            let substitution = try await shop.app.substitutionShop()
            let given = try await expect2xx(shop.app.substitute(substitution, quantity: 2), "a substitute at the pick")
            return Call(
                .post, "/v1/orders/\(substitution.orderID)/substitutions/\(try id(given.json))/decision", json: ["decision": "accept"],
                token: substitution.customer.token)
        },
        "addRecipeToCart": customer { shop in
            let recipe = try await shop.recipe(by: try await shop.customer(), product: try await shop.product())
            let shopper = try await shop.customer()
            try await shop.app.chooseStore(shopper, shop.store)
            return Call(.post, "/v1/recipes/\(recipe)/add-to-cart", json: [:], token: shopper.token)
        },
        "putReview": customer { shop in
            let (buyer, product) = try await shop.collected()
            return Call(.put, "/v1/products/\(product)/review", json: ["rating": 4, "bodyMarkdown": "Fresh every time."], token: buyer.token)
        },
        "deleteReview": customer { shop in
            let (buyer, product, _) = try await shop.review()
            return Call(.delete, "/v1/products/\(product)/review", token: buyer.token)
        },
        "markReviewHelpful": customer { shop in
            let (_, _, review) = try await shop.review()
            return Call(.post, "/v1/reviews/\(review)/helpful", token: try await shop.customer().token)
        },
        "createNewsComment": customer { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/news/\(shop.news)/comments", json: ["bodyMarkdown": "Good to know."],
                token: try await shop.customer().token)
        },
        "createRecipe": customer { shop in
            Call(.post, "/v1/recipes", json: shop.recipeBody(title: "Rum punch"), token: try await shop.customer().token)
        },
        "updateRecipe": customer { shop in
            let author = try await shop.customer()
            let recipe = try await shop.recipe(by: author)
            return Call(.put, "/v1/recipes/\(recipe)", json: shop.recipeBody(title: "Rum punch, stronger"), token: author.token)
        },
        "deleteRecipe": customer { shop in
            let author = try await shop.customer()
            return Call(.delete, "/v1/recipes/\(try await shop.recipe(by: author))", token: author.token)
        },
        "uploadRecipeImage": customer { shop in
            let author = try await shop.customer()
            return Call(.put, "/v1/recipes/\(try await shop.recipe(by: author))/image", png: true, token: author.token)
        },
        "createRecipeComment": customer { shop in
            let recipe = try await shop.recipe(by: try await shop.customer())
            return Call(.post, "/v1/recipes/\(recipe)/comments", json: ["bodyMarkdown": "Lovely."], token: try await shop.customer().token)
        },
        "deleteComment": customer { shop in
            let recipe = try await shop.recipe(by: try await shop.customer())
            let reader = try await shop.customer()
            let comment = try await expect2xx(
                shop.app.request(.post, "/v1/recipes/\(recipe)/comments", json: ["bodyMarkdown": "Lovely."], token: reader.token), "a comment")
            return Call(.delete, "/v1/comments/\(try id(comment.json))", token: reader.token)
        },
        "reportContent": customer { shop in
            let recipe = try await shop.recipe(by: try await shop.customer())
            return Call(
                .post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(recipe), "reason": "spam"],
                token: try await shop.customer().token)
        },
    ]

    /// The store's staff at the pick, the desk and the board.
    static let staffRecipes: [String: Recipe] = [
        "createPickList": staff { shop in
            let (_, order, _) = try await shop.order()
            return Call(.post, "/v1/stores/\(shop.store)/pick-lists", json: ["orderIds": [.string(try id(order))]], token: shop.staff.token)
        },
        "recordPick": staff { shop in
            let (_, order, product) = try await shop.order()
            let list = try await shop.pickList(for: order)
            return Call(
                .post, "/v1/pick-lists/\(list)/picks", json: ["orderId": .string(try id(order)), "productId": .string(product), "quantity": 1],
                token: shop.staff.token)
        },
        "completePickList": staff { shop in
            let (_, order, product) = try await shop.order()
            let list = try await shop.pickList(for: order)
            try await expect2xx(
                shop.app.request(
                    .post, "/v1/pick-lists/\(list)/picks", json: ["orderId": .string(try id(order)), "productId": .string(product), "quantity": 1],
                    token: shop.staff.token), "the whole order picked")
            return Call(.post, "/v1/pick-lists/\(list)/complete", token: shop.staff.token)
        },
        "reissueReceipt": staff { shop in
            let (_, order, _) = try await shop.order()
            return Call(
                .post, "/v1/orders/\(try id(order))/receipt/reissue", json: ["reason": "The customer's phone is flat."], token: shop.staff.token)
        },
        "transitionOrder": staff { shop in
            let (_, order, _) = try await shop.order()
            return Call(.post, "/v1/orders/\(try id(order))/transitions", json: ["to": "packaged"], token: shop.staff.token)
        },
        "stageBag": staff { shop in
            let (_, order, _) = try await shop.packagedOrder()
            let places = try await expect2xx(
                shop.app.request(
                    .put, "/v1/stores/\(shop.store)/staging-places", json: ["places": [["name": "Shelf A", "kind": "shelf"]]],
                    token: shop.manager.token), "a staging place")
            let place = try #require(places.json["items"][0]["id"].string)
            return Call(
                .post, "/v1/bags/stage", json: ["bagCode": .string("\(order["number"].int ?? 0)-1"), "placeId": .string(place)],
                token: shop.staff.token)
        },
        "notifyOrderReady": staff { shop in
            let (_, order, _) = try await shop.packagedOrder()
            // The first ready message went out when it was packed; one a minute at most, so it is made older.
            _ = try await sql(
                "UPDATE events SET occurred_at = occurred_at - interval '5 minutes' WHERE order_id = $1 AND type = 'order.ready_for_pickup'",
                [try id(order)], on: shop.app.database)
            return Call(.post, "/v1/orders/\(try id(order))/notifications/ready", token: shop.staff.token)
        },
        "collectOrder": staff { shop in
            let order = try await shop.paidPackagedOrder()
            return Call(
                .post, "/v1/collections", json: ["token": order["pickupToken"]], token: shop.staff.token,
                headers: [HTTPField.Name("Idempotency-Key")!: UUID().uuidString])
        },
        // The preview reads the order and writes nothing: it must not fail for want of a commit.
        "previewCollection": staff(readsOnly: true) { shop in
            let order = try await shop.paidPackagedOrder()
            return Call(.post, "/v1/collections/preview", json: ["token": order["pickupToken"]], token: shop.staff.token)
        },
        // Finding an order by number and name reads only, as the preview does.
        "findCollection": staff(readsOnly: true) { shop in
            let order = try await shop.paidPackagedOrder()
            return Call(
                .post, "/v1/collections/find", json: ["orderNumber": order["number"], "surname": "Customer"], token: shop.staff.token)
        },
        "recordPayment": staff { shop in
            let (_, order, _) = try await shop.packagedOrder()
            return Call(.post, "/v1/orders/\(try id(order))/payments", json: ["method": "cash", "amount": order["total"]], token: shop.staff.token)
        },
        "removeRestrictedLines": staff { shop in
            let customer = try await shop.customer()
            let (rum, bread) = (try await shop.product(price: 500), try await shop.product(price: 300))
            _ = try await sql("UPDATE products SET minimum_age = 18 WHERE id = $1", [rum], on: shop.app.database)
            try await shop.app.fillCart(customer, store: shop.store, [(rum, 1), (bread, 1)])
            let order = try await expect2xx(shop.app.checkout(customer), "a checkout with rum")
            try await expect2xx(shop.app.transition(try id(order.json), to: "packaged", by: shop.staff), "the order packed")
            return Call(.post, "/v1/orders/\(try id(order.json))/restricted-lines/remove", token: shop.staff.token)
        },
        "createSubstitution": staff { shop in
            let substitution = try await shop.app.substitutionShop()
            return Call(
                .post, "/v1/pick-lists/\(substitution.pickList)/substitutions",
                json: [
                    "orderId": .string(substitution.orderID), "productId": .string(substitution.ackee),
                    "substituteBarcode": .string(substitution.substituteBarcode), "quantity": 2,
                ],
                token: substitution.staff.token)
        },
    ]

    /// The store's manager: staff, stock, prices, sales, coupons, news, moderation, webhooks.
    static let managerRecipes: [String: Recipe] = [
        "eraseStaff": manager { shop in
            Call(.delete, "/v1/stores/\(shop.store)/staff/\(try await shop.staffMember().userID)", token: shop.manager.token)
        },
        "createStoreAccount": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/staff",
                json: ["email": .string("staff-\(tag())@example.com"), "name": "New Staff", "password": "long enough password", "role": "staff"],
                token: shop.manager.token)
        },
        "disableStaff": manager { shop in
            Call(.post, "/v1/stores/\(shop.store)/staff/\(try await shop.staffMember().userID)/disable", token: shop.manager.token)
        },
        "enableStaff": manager { shop in
            let staff = try await shop.staffMember()
            try await expect2xx(
                shop.app.request(.post, "/v1/stores/\(shop.store)/staff/\(staff.userID)/disable", token: shop.manager.token), "staff disabled")
            return Call(.post, "/v1/stores/\(shop.store)/staff/\(staff.userID)/enable", token: shop.manager.token)
        },
        "setStock": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/stock/\(try await shop.product())", json: ["onHand": 40, "minSupply": 5, "expectedOnHand": 50],
                token: shop.manager.token)
        },
        "adjustStock": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/stock/\(try await shop.product())/adjustments",
                json: ["delta": 3, "reason": "received", "note": "Morning delivery"], token: shop.manager.token)
        },
        "setStockLocation": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/stock/\(try await shop.product())/location",
                json: ["aisleCode": .string(shop.aisleCode), "bay": 2, "shelf": "B"], token: shop.manager.token)
        },
        "clearStockLocation": manager { shop in
            Call(.delete, "/v1/stores/\(shop.store)/stock/\(try await shop.product(aisle: shop.aisle))/location", token: shop.manager.token)
        },
        "setStoreMinimumAge": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/products/\(try await shop.product())/minimum-age", json: ["minimumAge": 21],
                token: shop.manager.token)
        },
        "setStorePrice": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/prices/\(try await shop.product())", json: ["amount": 900, "currency": "JMD"],
                token: shop.manager.token)
        },
        // CSV imports (issue 46): the preview keeps the import; start queues it (its worker then
        // writes the count); cancel drops a previewed one.
        "createCatalogueImport": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/catalogue-imports", rawBody: "sku,on_hand\nNO-SUCH-SKU,4\n", token: shop.manager.token,
                headers: [.contentType: "text/csv"])
        },
        "startCatalogueImport": manager { shop in
            let id = try await shop.catalogueImport()
            return Call(.post, "/v1/stores/\(shop.store)/catalogue-imports/\(id)/start", token: shop.manager.token)
        },
        "cancelCatalogueImport": manager { shop in
            let id = try await shop.catalogueImport()
            return Call(.post, "/v1/stores/\(shop.store)/catalogue-imports/\(id)/cancel", token: shop.manager.token)
        },
        "deleteStorePrice": manager { shop in
            let product = try await shop.product()
            try await expect2xx(
                shop.app.request(
                    .put, "/v1/stores/\(shop.store)/prices/\(product)", json: ["amount": 900, "currency": "JMD"], token: shop.manager.token),
                "the store's own price")
            return Call(.delete, "/v1/stores/\(shop.store)/prices/\(product)", token: shop.manager.token)
        },
        "createSale": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/sales",
                json: [
                    "productId": .string(try await shop.product()), "price": ["amount": 500, "currency": "JMD"], "startsAt": isoFromNow(86_400),
                    "endsAt": isoFromNow(2 * 86_400),
                ], token: shop.manager.token)
        },
        "endSale": manager { shop in
            let sale = try await expect2xx(
                shop.app.createSale(shop.manager, store: shop.store, product: try await shop.product(), amount: 500), "a running sale")
            return Call(.post, "/v1/stores/\(shop.store)/sales/\(try id(sale.json))/end", token: shop.manager.token)
        },
        "createStoreCoupon": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/coupons", json: ["code": .string("SAVE\(tag().uppercased())"), "percentOffBasisPoints": 500],
                token: shop.manager.token)
        },
        "endStoreCoupon": manager { shop in
            let coupon = try await expect2xx(
                shop.app.request(
                    .post, "/v1/stores/\(shop.store)/coupons", json: ["code": .string("END\(tag().uppercased())"), "percentOffBasisPoints": 500],
                    token: shop.manager.token), "a coupon")
            return Call(.post, "/v1/stores/\(shop.store)/coupons/\(try id(coupon.json))/end", token: shop.manager.token)
        },
        "setStoreCalendar": manager { shop in
            // A store of its own: at the shop's store a calendar would make every later checkout name a slot.
            let store = try await shop.app.createStore(code: "CAL-\(tag().uppercased())", name: "Calendar store")
            let manager = try await shop.app.signIn(role: .manager, store: store)
            return Call(.put, "/v1/stores/\(store)/calendar", json: TestApp.everyDay(), token: manager.token)
        },
        "setStagingPlaces": manager { shop in
            // A store of its own: places at the shop's store would make its orders wait to be staged.
            let store = try await shop.app.createStore(code: "BAGS-\(tag().uppercased())", name: "Staging store")
            let manager = try await shop.app.signIn(role: .manager, store: store)
            return Call(
                .put, "/v1/stores/\(store)/staging-places", json: ["places": [["name": "Shelf A", "kind": "shelf"]]], token: manager.token)
        },
        "setStoreRota": manager { shop in
            // A store of its own: a rota at the shop's store would limit every later checkout's slot by its work.
            let store = try await shop.app.createStore(code: "ROTA-\(tag().uppercased())", name: "Rota store")
            let manager = try await shop.app.signIn(role: .manager, store: store)
            return Call(
                .put, "/v1/stores/\(store)/rota", json: ["defaultPickers": 2, "hours": [["weekday": "saturday", "hour": 10, "pickers": 4]]],
                token: manager.token)
        },
        "setSubstitutionPolicy": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/substitution-policy", json: ["defaultPreference": "none", "priceRule": "substitute_price"],
                token: shop.manager.token)
        },
        "recordRefund": manager { shop in
            let (_, order, _) = try await shop.order(method: "prepaid")
            try await expect2xx(shop.app.webhook(try paymentEvent("payment.succeeded", order: order)), "the provider's payment")
            try await expect2xx(shop.app.transition(try id(order), to: "cancelled", by: shop.staff), "the paid order cancelled")
            return Call(
                .post, "/v1/orders/\(try id(order))/refunds", json: ["amount": order["total"], "note": "Paid back at the desk"],
                token: shop.manager.token)
        },
        "createNews": manager { shop in
            Call(
                .post, "/v1/stores/\(shop.store)/news", json: ["title": "Fresh fish Fridays", "bodyMarkdown": "From eight.", "published": true],
                token: shop.manager.token)
        },
        "updateNews": manager { shop in
            Call(
                .put, "/v1/stores/\(shop.store)/news/\(try await shop.newsItem())",
                json: ["title": "Fresh fish Fridays and Saturdays", "bodyMarkdown": "From eight.", "published": true], token: shop.manager.token)
        },
        "deleteNews": manager { shop in
            Call(.delete, "/v1/stores/\(shop.store)/news/\(try await shop.newsItem())", token: shop.manager.token)
        },
        "uploadNewsImage": manager { shop in
            Call(.put, "/v1/stores/\(shop.store)/news/\(try await shop.newsItem())/image", png: true, token: shop.manager.token)
        },
        "hideContent": manager { shop in
            Call(.post, "/v1/moderation/recipe/\(try await shop.recipe(by: try await shop.customer()))/hide", token: shop.manager.token)
        },
        "restoreContent": manager { shop in
            let recipe = try await shop.recipe(by: try await shop.customer())
            try await expect2xx(shop.app.request(.post, "/v1/moderation/recipe/\(recipe)/hide", token: shop.manager.token), "the recipe hidden")
            return Call(.post, "/v1/moderation/recipe/\(recipe)/restore", token: shop.manager.token)
        },
        "blockAuthor": manager { shop in
            let author = try await shop.customer()
            _ = try await shop.recipe(by: author)
            return Call(.post, "/v1/moderation/blocks", json: ["userId": .string(author.userID), "reason": "Spam"], token: shop.manager.token)
        },
        "unblockAuthor": manager { shop in
            let author = try await shop.customer()
            _ = try await shop.recipe(by: author)
            try await expect2xx(
                shop.app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(author.userID)], token: shop.manager.token),
                "the author blocked")
            return Call(.delete, "/v1/moderation/blocks/\(author.userID)", token: shop.manager.token)
        },
        "createWebhook": manager { shop in
            Call(
                .post, "/v1/webhooks",
                json: [
                    "url": .string("https://partner.example/\(tag())"), "eventTypes": ["favourite.back_in_stock"], "storeId": .string(shop.store),
                ], token: shop.manager.token)
        },
        "updateWebhook": manager { shop in
            Call(.patch, "/v1/webhooks/\(try await shop.webhook())", json: ["description": "Stock alerts"], token: shop.manager.token)
        },
        "deleteWebhook": manager { shop in
            Call(.delete, "/v1/webhooks/\(try await shop.webhook())", token: shop.manager.token)
        },
        "rotateWebhookSecret": manager { shop in
            Call(.post, "/v1/webhooks/\(try await shop.webhook())/secret", token: shop.manager.token)
        },
        // A test message is sent, not stored: answered with or without the fault.
        "testWebhook": manager(readsOnly: true) { shop in
            Call(.post, "/v1/webhooks/\(try await shop.webhook())/test", token: shop.manager.token)
        },
        "redeliverWebhook": manager { shop in
            let webhook = try await shop.webhook()
            let (_, order, _) = try await shop.order()
            // A delivery that has finished (failed): what a manager sends again.
            let delivery = try await sql(
                """
                INSERT INTO webhook_deliveries (store_id, endpoint_id, event_id, status, attempts, last_response_code)
                SELECT $1, $2, e.id, 'failed', 7, 500 FROM events e WHERE e.order_id = $3 LIMIT 1
                RETURNING id
                """, [shop.store, webhook, try id(order)], on: shop.app.database)
            guard let deliveryID = delivery.first?[0] else { throw TestSetupError("no event of the order to deliver") }
            return Call(.post, "/v1/webhooks/\(webhook)/deliveries/\(deliveryID)/redeliver", token: shop.manager.token)
        },
    ]

    /// The chain's admin: stores, aisles, the catalogue, chain coupons, erasure.
    static let adminRecipes: [String: Recipe] = [
        "eraseUser": admin { shop in
            Call(.delete, "/v1/users/\(try await shop.customer().userID)", token: shop.admin.token)
        },
        "createStore": admin { shop in
            Call(
                .post, "/v1/stores", json: ["code": .string("NEW-\(tag().uppercased())"), "name": "New store", "currency": "JMD"],
                token: shop.admin.token)
        },
        "updateStore": admin { shop in
            Call(.patch, "/v1/stores/\(shop.store)", json: ["name": .string("Commit failures \(tag())")], token: shop.admin.token)
        },
        "createAisle": admin { shop in
            let number = Int.random(in: 100...9_999)
            return Call(
                .post, "/v1/stores/\(shop.store)/aisles",
                json: ["code": .string("N\(number)"), "name": "Bakery", "walkOrder": .int(number), "zone": "ambient"], token: shop.admin.token)
        },
        "updateAisle": admin { shop in
            Call(.patch, "/v1/stores/\(shop.store)/aisles/\(try await shop.newAisle())", json: ["name": "Bakery and bread"], token: shop.admin.token)
        },
        "deleteAisle": admin { shop in
            Call(.delete, "/v1/stores/\(shop.store)/aisles/\(try await shop.newAisle())", token: shop.admin.token)
        },
        "createProduct": admin { shop in
            Call(
                .post, "/v1/products",
                json: ["sku": .string("SKU-\(tag())"), "name": "Pimento", "price": ["amount": 1_200, "currency": "JMD"]], token: shop.admin.token)
        },
        "updateProduct": admin { shop in
            Call(.patch, "/v1/products/\(try await shop.product())", json: ["name": "Pimento, whole"], token: shop.admin.token)
        },
        "discontinueProduct": admin { shop in
            Call(.post, "/v1/products/\(try await shop.product())/discontinue", token: shop.admin.token)
        },
        "setProductMinimumAge": admin { shop in
            Call(.put, "/v1/products/\(try await shop.product())/minimum-age", json: ["minimumAge": 18], token: shop.admin.token)
        },
        "uploadProductImage": admin { shop in
            Call(.put, "/v1/products/\(try await shop.product())/image", png: true, token: shop.admin.token)
        },
        "uploadProductGalleryImage": admin { shop in
            Call(.put, "/v1/products/\(try await shop.product())/images/0?altText=Front", png: true, token: shop.admin.token)
        },
        "updateProductGalleryImage": admin { shop in
            let product = try await shop.galleryProduct()
            return Call(.patch, "/v1/products/\(product)/images/1", json: ["position": 0, "altText": "Back of the tin"], token: shop.admin.token)
        },
        "deleteProductGalleryImage": admin { shop in
            Call(.delete, "/v1/products/\(try await shop.galleryProduct())/images/0", token: shop.admin.token)
        },
        "putCategoryDetails": admin { shop in
            Call(.put, "/v1/categories/Tins%20\(tag())", json: ["description": "For the cupboard."], token: shop.admin.token)
        },
        "createCoupon": admin { shop in
            Call(.post, "/v1/coupons", json: ["code": .string("CHAIN\(tag().uppercased())"), "percentOffBasisPoints": 500], token: shop.admin.token)
        },
        "endCoupon": admin { shop in
            let coupon = try await expect2xx(
                shop.app.request(
                    .post, "/v1/coupons", json: ["code": .string("CHAINEND\(tag().uppercased())"), "percentOffBasisPoints": 500],
                    token: shop.admin.token), "a chain coupon")
            return Call(.post, "/v1/coupons/\(try id(coupon.json))/end", token: shop.admin.token)
        },
    ]

    /// The routes that verify an identity provider's ID token, against a real provider.
    static let providerRecipes: [String: Recipe] = [
        "exchangeIdToken": Recipe(sender: .anyone, bench: .identityProvider) { shop in
            let provider = try shop.identityProvider()
            let (token, nonce) = try await provider.appToken(provider.alice)
            return Call(
                .post, "/v1/auth/oidc/token", json: ["issuer": .string(provider.issuer), "idToken": .string(token), "nonce": .string(nonce)])
        },
        "linkIdentity": Recipe(sender: .customer, bench: .identityProvider) { shop in
            let provider = try shop.identityProvider()
            let customer = try await shop.customer()
            let (token, nonce) = try await provider.appToken(provider.carol)
            return Call(
                .post, "/v1/me/identities",
                json: ["issuer": .string(provider.issuer), "idToken": .string(token), "nonce": .string(nonce), "password": "correct horse"],
                token: customer.token)
        },
    ]

    // MARK: - Helpers

    /// A short random tag that keeps codes, emails and names unique.
    static func tag() -> String {
        String(UUID().uuidString.prefix(8)).lowercased()
    }

    static func id(_ json: JSONValue) throws -> String {
        guard let id = json["id"].string else { throw TestSetupError("no id in \(json)") }
        return id
    }

    @discardableResult
    static func expect2xx(_ reply: TestReply, _ what: String) throws -> TestReply {
        try CrossStoreAccessTests.expect2xx(reply, what)
    }

    /// The payment provider's event for all of `order`'s total, as its webhook sends it.
    static func paymentEvent(_ type: String, order: JSONValue) throws -> String {
        guard let total = order["total"]["amount"].int else { throw TestSetupError("no total in \(order)") }
        return #"{"id": "evt_\#(tag())", "type": "\#(type)", "orderId": "\#(try id(order))", "amount": {"amount": \#(total), "currency": "JMD"}}"#
    }
}

extension CommitFailureTests {
    /// The store every recipe works in: its manager, staff, an aisle, a live coupon and a
    /// published news item; the chain's admin; and, on the identity provider's bench, the provider.
    /// Each recipe makes what it changes afresh (a customer, a product, an order), so no recipe
    /// depends on another having run.
    struct Shop: Sendable {
        var app: TestApp
        var store: String
        var manager: Session
        var staff: Session
        var admin: Session
        var aisle: String
        var aisleCode: String
        var coupon: String
        var news: String
        var provider: ProviderFixture?

        static func make(_ app: TestApp, provider: ProviderFixture?) async throws -> Shop {
            let store = try await app.createStore(code: "CF-\(tag().uppercased())", name: "Commit failures")
            let manager = try await app.signIn(role: .manager, store: store)
            let aisleCode = "A\(Int.random(in: 10...99))"
            let coupon = "WELCOME\(tag().uppercased())"
            try await expect2xx(
                app.request(
                    .post, "/v1/stores/\(store)/coupons", json: ["code": .string(coupon), "percentOffBasisPoints": 500], token: manager.token),
                "the store's coupon")
            let news = try await expect2xx(
                app.request(
                    .post, "/v1/stores/\(store)/news", json: ["title": "Open late", "bodyMarkdown": "Until ten.", "published": true],
                    token: manager.token), "the store's news")
            return Shop(
                app: app, store: store, manager: manager, staff: try await app.signIn(role: .staff, store: store),
                admin: try await app.signInAdmin(),
                aisle: try await app.createAisle(store: store, code: aisleCode, name: "Aisle one", walkOrder: 1), aisleCode: aisleCode,
                coupon: coupon, news: try id(news.json), provider: provider)
        }

        func identityProvider() throws -> ProviderFixture {
            guard let provider else { throw TestSetupError("this recipe runs on the identity provider's bench") }
            return provider
        }

        /// A new customer, signed in, whose password is "correct horse".
        func customer() async throws -> Session {
            try await app.registerCustomer(password: "correct horse")
        }

        /// A new staff member of the store, signed in.
        func staffMember() async throws -> Session {
            try await app.signIn(role: .staff, store: store)
        }

        /// A new product with 50 on hand at the store (placed in `aisle` when given).
        func product(price: Int = 1_000, aisle: String? = nil) async throws -> String {
            try await app.createProduct(store: store, name: "Product \(tag())", price: price, onHand: 50, aisle: aisle)
        }

        /// A previewed CSV import of the store's manager, counting a new product's stock again.
        func catalogueImport() async throws -> String {
            let sku = try await sql("SELECT sku FROM products WHERE id = $1", [try await product()], on: app.database)[0][0] ?? ""
            let preview = try await app.request(
                .post, "/v1/stores/\(store)/catalogue-imports", rawBody: "sku,on_hand\n\(sku),7\n", token: manager.token,
                headers: [.contentType: "text/csv"])
            guard preview.status == .created, let id = preview.json["id"].string else { throw TestSetupError("import: \(preview.text)") }
            return id
        }

        /// A new product with two images in its gallery.
        func galleryProduct() async throws -> String {
            let product = try await self.product()
            for position in 0...1 {
                let placed = try await app.upload(
                    "/v1/products/\(product)/images/\(position)", bytes: tinyPNG + [UInt8(position)], contentType: "image/png", token: admin.token)
                guard placed.status == .ok else { throw TestSetupError("gallery: \(placed.text)") }
            }
            return product
        }

        /// A new customer with two of a new product in their cart.
        func filledCart() async throws -> (customer: Session, product: String) {
            let (customer, product) = (try await self.customer(), try await self.product())
            try await app.fillCart(customer, store: store, [(product, 2)])
            return (customer, product)
        }

        /// A new customer's pending order of one of a new product.
        func order(method: String = "pay_at_collection") async throws -> (customer: Session, order: JSONValue, product: String) {
            try await app.placeOrder(store: store, method: method)
        }

        func packagedOrder() async throws -> (customer: Session, order: JSONValue, product: String) {
            let placed = try await order()
            try await expect2xx(app.transition(try id(placed.order), to: "packaged", by: staff), "the order packed")
            return placed
        }

        /// A packed order paid at the desk, ready to hand over; its JSON as the customer saw it.
        func paidPackagedOrder() async throws -> JSONValue {
            let (_, order, _) = try await packagedOrder()
            try await expect2xx(app.pay(order, by: staff), "the order paid")
            return order
        }

        /// A customer who has collected one of a new product (so may review it).
        func collected() async throws -> (buyer: Session, product: String) {
            let (buyer, order, product) = try await self.order()
            try await app.collect(order, by: staff)
            return (buyer, product)
        }

        /// A buyer's review of a product they collected; its id.
        func review() async throws -> (buyer: Session, product: String, review: String) {
            let (buyer, product) = try await collected()
            let review = try await expect2xx(
                app.request(.put, "/v1/products/\(product)/review", json: ["rating": 5], token: buyer.token), "a review")
            return (buyer, product, try id(review.json))
        }

        /// An open pick list of the store holding `order`.
        func pickList(for order: JSONValue) async throws -> String {
            let list = try await expect2xx(
                app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(try id(order))]], token: staff.token),
                "a pick list")
            return try id(list.json)
        }

        func recipeBody(title: String, product: String? = nil) -> JSONValue {
            var ingredient: [String: JSONValue] = ["text": "Lime"]
            if let product {
                ingredient["productId"] = .string(product)
                ingredient["quantity"] = 1
            }
            return [
                "title": .string(title), "bodyMarkdown": "Mix and serve.", "servings": 2, "storeId": .string(store),
                "ingredients": [.object(ingredient)],
            ]
        }

        /// A recipe `author` shared at the store; its id.
        func recipe(by author: Session, product: String? = nil) async throws -> String {
            let recipe = try await expect2xx(
                app.request(.post, "/v1/recipes", json: recipeBody(title: "Rum punch", product: product), token: author.token), "a recipe")
            return try id(recipe.json)
        }

        /// A published news item of the store; its id.
        func newsItem() async throws -> String {
            let news = try await expect2xx(
                app.request(
                    .post, "/v1/stores/\(store)/news", json: ["title": "New hours", "bodyMarkdown": "Open at seven.", "published": true],
                    token: manager.token), "a news item")
            return try id(news.json)
        }

        /// An aisle of the store that holds nothing.
        func newAisle() async throws -> String {
            let number = Int.random(in: 100...9_999)
            return try await app.createAisle(store: store, code: "X\(number)", name: "Aisle \(number)", walkOrder: number)
        }

        /// An enabled endpoint of the store for an event no recipe causes, so the dispatcher has
        /// nothing to send it.
        func webhook() async throws -> String {
            let endpoint = try await app.createWebhook(
                manager, url: "https://partner.example/\(tag())", eventTypes: ["favourite.back_in_stock"], storeID: store)
            return try id(endpoint)
        }
    }
}

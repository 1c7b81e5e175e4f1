import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// What a pick may still change once an order has left the shelf-walk (issue 10, items 1 and 6).
@Suite("Pick lists: picks only touch orders still waiting on the list")
struct PickListDriftTests {
    /// One located product with 10 on hand, one pending order of 2 of it, on an open pick list.
    func orderOnAList(_ app: TestApp) async throws -> (store: String, staff: Session, product: String, order: String, list: String) {
        let store = try await app.createStore()
        let aisle = try await app.createAisle(store: store, code: "6", name: "Dairy", walkOrder: 1)
        let product = try await app.createProduct(store: store, name: "Mozzarella", onHand: 10, aisle: aisle)
        let customer = try await app.registerCustomer()
        let order = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product, 2)])
        let staff = try await app.signIn(role: .staff, store: store)
        let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: [:], token: staff.token)
        guard let id = list.json["id"].string else { throw TestSetupError("pick list: \(list.text)") }
        return (store, staff, product, order, id)
    }

    func pick(_ app: TestApp, list: String, order: String, product: String, quantity: Int, short: Bool = false, by staff: Session)
        async throws -> TestReply
    {
        try await app.request(
            .post, "/v1/pick-lists/\(list)/picks",
            json: ["orderId": .string(order), "productId": .string(product), "quantity": .int(quantity), "short": .bool(short)],
            token: staff.token)
    }

    @Test("a picker's typo of 9223372036854775807 after a first pick is refused, and the service keeps serving")
    func hugeQuantity() async throws {
        try await withApp { app in
            let shop = try await orderOnAList(app)
            #expect(try await pick(app, list: shop.list, order: shop.order, product: shop.product, quantity: 1, by: shop.staff).status == .ok)
            let typo = try await pick(app, list: shop.list, order: shop.order, product: shop.product, quantity: Int.max, by: shop.staff)
            #expect(typo.status == .unprocessableContent)
            #expect(typo.errorCode == "invalid_quantity")
            let negative = try await pick(app, list: shop.list, order: shop.order, product: shop.product, quantity: Int.min, by: shop.staff)
            #expect(negative.errorCode == "invalid_quantity")
            // Still up, and the line still stands at 1 of 2.
            #expect(try await app.request(.get, "/healthz").status == .ok)
            let line = try await sql("SELECT picked_quantity FROM order_lines WHERE order_id = $1", [shop.order], on: app.database)
            #expect(line[0][0] == "1")
        }
    }

    @Test("an order packed by hand leaves its open list: a later pick or short is 409 and stock stays true to the end")
    func pickAfterHandPackaging() async throws {
        try await withApp { app in
            let shop = try await orderOnAList(app)
            #expect(try await pick(app, list: shop.list, order: shop.order, product: shop.product, quantity: 1, by: shop.staff).status == .ok)
            // The desk packs it by hand (both units found), while it is still on the list.
            #expect(try await app.transition(shop.order, to: "packaged", by: shop.staff).status == .ok)
            let onList = try await sql("SELECT open FROM pick_list_orders WHERE order_id = $1", [shop.order], on: app.database)
            #expect(onList[0][0] == "f")

            let late = try await pick(app, list: shop.list, order: shop.order, product: shop.product, quantity: 0, short: true, by: shop.staff)
            #expect(late.status == .conflict)
            #expect(late.errorCode == "order_not_pickable")
            #expect(late.json["error"]["details"]["status"].string == "packaged")
            let line = try await sql("SELECT picked_quantity, picked_short FROM order_lines WHERE order_id = $1", [shop.order], on: app.database)
            #expect(line[0] == ["1", "f"])
            #expect(try await app.stock(store: shop.store, product: shop.product) == (10, 2))

            // Completing the list leaves the hand-packed order as it is.
            let completed = try await app.request(.post, "/v1/pick-lists/\(shop.list)/complete", token: shop.staff.token)
            #expect(completed.status == .ok)
            // Cancelling releases exactly what it holds: nothing stays reserved, nothing goes negative.
            #expect(try await app.transition(shop.order, to: "cancelled", by: shop.staff).status == .ok)
            #expect(try await app.stock(store: shop.store, product: shop.product) == (10, 0))
        }
    }

    @Test("a pick racing a hand packaging: either the pick lands first and counts, or it is refused; stock adds up either way")
    func pickRacingPackaging() async throws {
        try await withApp { app in
            for _ in 0..<5 {
                let shop = try await orderOnAList(app)
                let replies = try await app.race(2) { index, racer in
                    index == 0
                        ? try await racer.transition(shop.order, to: "packaged", by: shop.staff)
                        : try await pick(
                            racer, list: shop.list, order: shop.order, product: shop.product, quantity: 1, short: true,
                            by: shop.staff)
                }
                #expect(replies[0].status == .ok)
                #expect(replies[1].status == .ok || replies[1].errorCode == "order_not_pickable")
                // What the order holds now is what stock has reserved for it.
                let held = try await sql(
                    "SELECT held_quantity(l, true) FROM order_lines l WHERE order_id = $1", [shop.order], on: app.database)
                #expect(try await app.stock(store: shop.store, product: shop.product).reserved == Int(held[0][0]!)!)
            }
        }
    }
}

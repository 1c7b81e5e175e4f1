import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: refunds by line. A customer paid online for three lines; one was picked short. The
/// manager pays that line back on its own, part now and part later, never more than the line
/// was paid for; when the order is then cancelled, the whole refund is shared over the lines, so
/// every line ends having given back exactly what was paid for it.
@Suite("Refunds by line: what each line may give back, and never more")
struct LineRefundTests {
    /// A prepaid order of 2 × "Ackee" (1000), 1 × "Bammy" (500), 1 × "Cassava" (300), paid by the
    /// provider (2800), then packed with the ackee picked 1 of 2.
    func shortPicked(_ app: TestApp, store: String, staff: Session) async throws -> (order: String, ackee: String, bammy: String, cassava: String) {
        let ackee = try await app.addProduct(store: store, name: "Ackee", price: 1000)
        let bammy = try await app.addProduct(store: store, name: "Bammy", price: 500)
        let cassava = try await app.addProduct(store: store, name: "Cassava", price: 300)
        let customer = try await app.registerCustomer()
        try await app.fillCart(customer, store: store, [(ackee, 2), (bammy, 1), (cassava, 1)])
        let placed = try await app.checkout(customer, method: "prepaid")
        #expect(placed.status == .created, "\(placed.text)")
        let order = try #require(placed.json["id"].string)
        let paid = try await app.webhook(
            #"{"id": "evt_\#(order)", "type": "payment.succeeded", "orderId": "\#(order)", "amount": {"amount": 2800, "currency": "JMD"}}"#)
        #expect(paid.json["outcome"].string == "paid")
        let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(order)]], token: staff.token)
        let listID = try #require(list.json["id"].string)
        for (product, quantity, short) in [(ackee, 1, true), (bammy, 1, false), (cassava, 1, false)] {
            let pick = try await app.request(
                .post, "/v1/pick-lists/\(listID)/picks",
                json: ["orderId": .string(order), "productId": .string(product), "quantity": .int(quantity), "short": .bool(short)],
                token: staff.token)
            #expect(pick.status == .ok, "\(pick.text)")
        }
        #expect(try await app.request(.post, "/v1/pick-lists/\(listID)/complete", token: staff.token).status == .ok)
        return (order, ackee, bammy, cassava)
    }

    func line(_ order: JSONValue, _ product: String) -> JSONValue {
        order["lines"].array.first { $0["productId"].string == product } ?? .null
    }

    func refund(_ amount: Int, lines: [(String, Int)]? = nil) -> JSONValue {
        let money: JSONValue = ["amount": .int(amount), "currency": "JMD"]
        guard let lines else { return ["amount": money] }
        return ["amount": money, "lines": .array(lines.map { ["productId": .string($0.0), "amount": .int($0.1)] })]
    }

    @Test("the short-picked line is paid back on its own, in two parts, and no line gives back more than it was paid for")
    func shortLineInParts() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            let (order, ackee, bammy, cassava) = try await shortPicked(app, store: store, staff: staff)
            let path = "/v1/orders/\(order)/refunds"

            var seen = try await app.request(.get, "/v1/orders/\(order)", token: manager.token).json
            #expect(seen["refundDue"] == ["amount": 1000, "currency": "JMD"])
            #expect(line(seen, ackee)["refundable"] == ["amount": 1000, "currency": "JMD"])
            #expect(line(seen, bammy)["refundable"] == ["amount": 0, "currency": "JMD"])
            #expect(line(seen, ackee)["refunded"] == ["amount": 0, "currency": "JMD"])

            // More than the line was short, a line that owes nothing, a line named twice, an
            // amount that is not the lines' sum, and another store's manager: all refused.
            let tooMuch = try await app.request(.post, path, json: refund(1001, lines: [(ackee, 1001)]), token: manager.token)
            #expect(tooMuch.status == .unprocessableContent)
            #expect(tooMuch.errorCode == "line_refund_too_large")
            #expect(tooMuch.json["error"]["details"]["refundable"] == ["amount": 1000, "currency": "JMD"])
            #expect(tooMuch.json["error"]["details"]["productId"].string == ackee)
            let owesNothing = try await app.request(.post, path, json: refund(100, lines: [(bammy, 100)]), token: manager.token)
            #expect(owesNothing.errorCode == "line_refund_too_large")
            #expect(owesNothing.json["error"]["message"].string == "That line owes nothing back.")
            let twice = try await app.request(.post, path, json: refund(200, lines: [(ackee, 100), (ackee, 100)]), token: manager.token)
            #expect(twice.errorCode == "invalid_field")
            let notTheSum = try await app.request(.post, path, json: refund(500, lines: [(ackee, 400)]), token: manager.token)
            #expect(notTheSum.errorCode == "amount_mismatch")
            #expect(notTheSum.json["error"]["details"]["linesTotal"] == ["amount": 400, "currency": "JMD"])
            #expect(
                try await app.request(.post, path, json: refund(400, lines: [(ackee, 400)]), token: otherManager.token).status == .notFound)
            #expect(try await sql("SELECT count(*) FROM refunds", on: app.database)[0][0] == "0")

            // 400 now: the order still owes 600, and the line says so.
            let part = try await app.request(.post, path, json: refund(400, lines: [(ackee, 400)]), token: manager.token)
            #expect(part.status == .created, "\(part.text)")
            #expect(part.json["lines"] == [["productId": .string(ackee), "amount": 400]])
            seen = try await app.request(.get, "/v1/orders/\(order)", token: manager.token).json
            #expect(seen["paymentStatus"].string == "refund_due")
            #expect(seen["refundDue"] == ["amount": 600, "currency": "JMD"])
            #expect(line(seen, ackee)["refunded"] == ["amount": 400, "currency": "JMD"])
            #expect(line(seen, ackee)["refundable"] == ["amount": 600, "currency": "JMD"])
            #expect(
                try await app.request(.post, path, json: refund(601, lines: [(ackee, 601)]), token: manager.token).errorCode
                    == "line_refund_too_large")

            // The rest of the line: the order is settled.
            #expect(try await app.request(.post, path, json: refund(600, lines: [(ackee, 600)]), token: manager.token).status == .created)
            seen = try await app.request(.get, "/v1/orders/\(order)", token: manager.token).json
            #expect(seen["paymentStatus"].string == "refunded")
            #expect(line(seen, ackee)["refundable"] == ["amount": 0, "currency": "JMD"])

            // Cancelled after all: every line owes what is left of what was paid for it, and the
            // whole refund (no lines named) is shared over them.
            #expect(try await app.transition(order, to: "cancelled", by: staff).status == .ok)
            seen = try await app.request(.get, "/v1/orders/\(order)", token: manager.token).json
            #expect(seen["refundDue"] == ["amount": 1800, "currency": "JMD"])
            #expect(line(seen, ackee)["refundable"] == ["amount": 1000, "currency": "JMD"])
            #expect(line(seen, bammy)["refundable"] == ["amount": 500, "currency": "JMD"])
            #expect(line(seen, cassava)["refundable"] == ["amount": 300, "currency": "JMD"])
            let whole = try await app.request(.post, path, json: refund(1800), token: manager.token)
            #expect(whole.status == .created, "\(whole.text)")
            #expect(whole.json["lines"].array.count == 3)
            let perLine = try await sql(
                """
                SELECT l.name, sum(r.amount) FROM refund_lines r JOIN order_lines l USING (order_id, product_id)
                WHERE r.order_id = $1 GROUP BY l.name ORDER BY l.name
                """, [order], on: app.database)
            #expect(perLine == [["Ackee", "2000"], ["Bammy", "500"], ["Cassava", "300"]])
            #expect(try await sql("SELECT sum(amount) FROM refunds WHERE order_id = $1", [order], on: app.database)[0][0] == "2800")
            // The customer's data export says which lines each refund paid back, and each line's tax.
            let exported = try await sql(
                """
                SELECT json_array_length(e -> 'refunds' -> 0 -> 'lines'), e -> 'refunds' -> 0 -> 'lines' -> 0 ->> 'amount',
                       e -> 'lines' -> 0 ->> 'taxClass'
                FROM export_order_json($1::uuid) e
                """, [order], on: app.database)
            #expect(exported == [["1", "400", "standard"]])
        }
    }

    @Test("two managers paying back the same line at once: one refund, the other told the line owes less")
    func racingLineRefunds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let managers = [try await app.signIn(role: .manager, store: store), try await app.signIn(role: .manager, store: store)]
            let (order, ackee, _, _) = try await shortPicked(app, store: store, staff: staff)
            let statuses = try await app.race(2) { index, racer in
                try await racer.request(
                    .post, "/v1/orders/\(order)/refunds", json: refund(700, lines: [(ackee, 700)]), token: managers[index].token
                ).status.code
            }
            #expect(statuses.sorted() == [201, 422])
            #expect(try await sql("SELECT sum(amount) FROM refund_lines WHERE order_id = $1", [order], on: app.database)[0][0] == "700")
            #expect(try await sql("SELECT refund_due_amount FROM orders WHERE id = $1", [order], on: app.database)[0][0] == "300")
        }
    }

    @Test("the rule on plain values: coupon shares, substitutes, the desk's payment, and nothing for an unpaid order")
    func rule() {
        func line(_ name: String, price: Int64, quantity: Int, discount: Int64 = 0, amount: Int64? = nil, refunded: Int64 = 0) -> OrderLine {
            var line = OrderLine(productID: ProductID(UUID()), name: name, unitPrice: price, quantity: quantity, pickedQuantity: nil)
            line.discount = discount
            line.chargedAmount = amount
            line.refunded = refunded
            return line
        }
        var order = Order(
            id: OrderID(UUID()), number: 1, storeID: StoreID(UUID()), customerID: UserID(UUID()), customerName: "A", status: .packaged,
            paymentMethod: .prepaid, paymentStatus: .refundDue, total: Money(amount: 0, currency: "GBP"), createdAt: Date())
        // Two at 3.00 with 0.60 of a coupon: paid 5.40. One picked: it costs 2.70 now, so 2.70 back.
        var milk = line("Milk", price: 300, quantity: 2, discount: 60, amount: 270)
        // One bread, 1.00, substituted by a loaf costing 1.20 now: the bread gives nothing back.
        var bread = line("Bread", price: 100, quantity: 0, amount: 0)
        bread.substitutedQuantity = 1
        var loaf = line("Loaf", price: 120, quantity: 1, amount: 120)
        loaf.substitute = .init(id: SubstitutionID(UUID()), replaces: bread.productID, status: .accepted, decidedAt: nil)
        order.lines = [milk, bread, loaf]
        #expect(LineRefunds(order).owing == [.init(productID: milk.productID, amount: 270)])
        // The substitute refused: it costs nothing, so the bread's 1.00 comes back.
        order.lines[2].substitute?.status = .rejected
        order.lines[2].chargedAmount = 0
        #expect(LineRefunds(order).amount(of: bread.productID) == 100)
        #expect(LineRefunds(order).amount(of: loaf.productID) == 0)
        // 1.00 of the milk already paid back: 1.70 left on it; a whole refund of 2.00 takes
        // 1.70 from the milk and 0.30 from the bread, in the lines' order.
        milk.refunded = 100
        order.lines[0] = milk
        #expect(LineRefunds(order).amount(of: milk.productID) == 170)
        #expect(LineRefunds(order).shared(200) == [.init(productID: milk.productID, amount: 170), .init(productID: bread.productID, amount: 30)])
        // Cancelled: everything paid comes back, less what already did.
        order.status = .cancelled
        #expect(LineRefunds(order).amount(of: milk.productID) == 440)
        // Paid at the desk, then cancelled: what the lines cost when paid, not at checkout.
        order.paymentMethod = .payAtCollection
        #expect(LineRefunds(order).amount(of: milk.productID) == 170)
        // Not paid: nothing to give back.
        order.paymentStatus = .unpaid
        #expect(LineRefunds(order).owing.isEmpty)
        #expect(throws: OrderError.self) {
            try LineRefunds(order).check([.init(productID: milk.productID, amount: 1)], amount: Money(amount: 1, currency: "GBP"), due: 1)
        }
    }
}

import Foundation
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "1005" + Enter at the desk was "invalid code", and the code as text is about 140
/// characters nobody types. The desk finds an order by its number and a word of the customer's
/// name (the receipt says so under the QR), shows it as a scan would, and asks the staff member
/// to confirm the customer; the API's `findCollection` is the same lookup.
@Suite("The desk finds an order by number and surname")
struct DeskLookupTests {
    @Test(
        "the number and a word of the name find the order and its code; a bare number is asked for the name; another store's or a wrong name is not found"
    )
    func findByNumberAndSurname() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            try await sql("UPDATE users SET name = 'Alexandria Montgomery-Fitzgerald' WHERE id = $1", [customer.userID], on: app.database)
            let number = try #require(order["number"].int)
            let token = try #require(order["pickupToken"].string)

            // The API: any word of the name, case aside; the order's current code.
            for surname in ["Montgomery-Fitzgerald", "fitzgerald", "ALEXANDRIA", "alexandria montgomery-fitzgerald"] {
                let found = try await app.request(
                    .post, "/v1/collections/find", json: ["orderNumber": .int(number), "surname": .string(surname)], token: staff.token)
                #expect(found.status == .ok && found.json["pickupToken"].string == token, "\(surname): \(found.text)")
                #expect(found.json["customerName"].string == "Alexandria Montgomery-Fitzgerald")
            }
            for (body, status) in [
                (["orderNumber": .int(number), "surname": "Brown"], 404),
                (["orderNumber": .int(number + 1000), "surname": "Fitzgerald"], 404),
                (["orderNumber": 0, "surname": "Fitzgerald"], 422),
                (["orderNumber": .int(number), "surname": "F"], 422),
            ] as [([String: JSONValue], Int)] {
                let refused = try await app.request(.post, "/v1/collections/find", json: .object(body), token: staff.token)
                #expect(refused.status.code == status, "\(body): \(refused.text)")
            }
            // Another store's staff do not find it; a customer may not look.
            let elsewhere = try await app.signIn(role: .staff, store: try await app.createStore())
            let stranger = try await app.request(
                .post, "/v1/collections/find", json: ["orderNumber": .int(number), "surname": "Fitzgerald"], token: elsewhere.token)
            #expect(stranger.status == .notFound)
            #expect(
                try await app.request(
                    .post, "/v1/collections/find", json: ["orderNumber": .int(number), "surname": "Fitzgerald"], token: customer.token
                ).status == .forbidden)

            // The desk: packed and paid, found by "number surname", handed over after the confirmation.
            #expect(try await app.transition(try #require(order["id"].string), to: "packaged", by: staff).status == .ok)
            let desk = try await app.storeAccount(.staff, store: store)
            let cookie = try await app.consoleCookie(desk)
            let csrf = try await app.csrfToken(on: "/console/desk", cookie: cookie)
            let bare = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": "\(number)"], cookie: cookie)
            #expect(bare.status == .unprocessableContent && bare.text.contains("That is an order number."))
            let wrong = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": "\(number) Brown"], cookie: cookie)
            #expect(wrong.status == .notFound && wrong.text.contains("No order \(number) with the name “Brown” at this store."))
            let found = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": "#\(number)  fitzgerald\n"], cookie: cookie)
            #expect(found.status == .ok, "\(found.text)")
            #expect(found.text.contains("ask the customer to confirm they are Alexandria Montgomery-Fitzgerald"))
            #expect(found.text.contains("data-verdict=\"payment_required\""), "the verdict a scan gives: \(found.text)")

            // The receipt tells the customer what to say when the code will not scan.
            let receipt = try await app.form(.get, "/orders/\(try #require(order["id"].string))", cookie: "fulfilment_session=\(customer.token)")
            #expect(receipt.text.contains("or tell them your order number, <strong>\(number)</strong>, and your surname"))
        }
    }

    @Test(
        "the twelve letters under the QR find the order as a scan would; the database and Swift agree on them; a re-issued receipt's old letters are not found"
    )
    func findByShortCode() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = try #require(order["id"].string)
            let token = try #require(order["pickupToken"].string)
            let code = PickupShortCode.of(token)
            // One rule in two languages: the generated column (migration 053) and the Swift.
            #expect(try await sql("SELECT short_code FROM pickup_tokens WHERE order_id = $1", [id], on: app.database) == [[code]])
            #expect(order["pickupCode"].string == PickupShortCode.printed(code))
            #expect(code.count == 12 && code.allSatisfy(PickupShortCode.alphabet.contains))
            let seen = try await app.request(.get, "/v1/orders/\(id)", token: customer.token)
            #expect(seen.json["pickupCode"].string == PickupShortCode.printed(code))
            #expect(try await app.request(.get, "/v1/orders/\(id)", token: staff.token).json.has("pickupCode") == false, "the customer's only")

            let typed = PickupShortCode.printed(code).lowercased().replacingOccurrences(of: " ", with: "-")
            let found = try await app.request(.post, "/v1/collections/find", json: ["code": .string(typed)], token: staff.token)
            #expect(found.status == .ok, "\(found.text)")
            #expect(found.json["pickupToken"].string == token && found.json["orderId"].string == id)
            let elsewhere = try await app.signIn(role: .staff, store: try await app.createStore())
            #expect(try await app.request(.post, "/v1/collections/find", json: ["code": .string(code)], token: elsewhere.token).status == .notFound)
            for (body, status, field) in [
                (["code": "KDPT MRGB HLC1"], 422, "code"), (["code": "ABCDEFGHIJKL"], 422, "code"), (["surname": "Brown"], 422, "orderNumber"),
                (["orderNumber": 1005], 422, "surname"),
            ] as [([String: JSONValue], Int, String)] {
                let refused = try await app.request(.post, "/v1/collections/find", json: .object(body), token: staff.token)
                #expect(refused.status.code == status && refused.json["error"]["details"]["field"].string == field, "\(body): \(refused.text)")
            }

            // A receipt issued again has new letters; the old ones find nothing.
            let reissued = try await app.request(
                .post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "The customer's phone is flat."], token: staff.token)
            #expect(reissued.status == .created)
            let newCode = try #require(reissued.json["pickupCode"].string)
            #expect(newCode != PickupShortCode.printed(code))
            #expect(try await app.request(.post, "/v1/collections/find", json: ["code": .string(code)], token: staff.token).status == .notFound)
            let again = try await app.request(.post, "/v1/collections/find", json: ["code": .string(newCode)], token: staff.token)
            #expect(again.json["pickupToken"].string == reissued.json["pickupToken"].string)

            // The desk box takes the letters as a scan; the receipt prints them.
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            let desk = try await app.storeAccount(.staff, store: store)
            let cookie = try await app.consoleCookie(desk)
            let csrf = try await app.csrfToken(on: "/console/desk", cookie: cookie)
            let scanned = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": newCode.lowercased() + "\r\n"], cookie: cookie)
            #expect(scanned.status == .ok, "\(scanned.text)")
            #expect(scanned.text.contains("Found by the code under the QR"))
            #expect(scanned.text.contains("data-verdict=\"payment_required\""))
            let stale = try await app.form(.post, "/console/desk/scan", ["_csrf": csrf, "token": PickupShortCode.printed(code)], cookie: cookie)
            #expect(stale.status == .notFound && stale.text.contains("No receipt with the code"))
            let receipt = try await app.form(.get, "/orders/\(id)", cookie: "fulfilment_session=\(customer.token)")
            #expect(receipt.text.contains("<strong id=\"receipt-short-code\">\(newCode)</strong>"))
        }
    }

    @Test("what the desk box reads as a number and a name, and what it does not")
    func parsing() {
        #expect(DeskLookup("1005 Brown") == DeskLookup(number: 1005, surname: "Brown"))
        #expect(DeskLookup("  #1005   de la Cruz ") == DeskLookup(number: 1005, surname: "de la Cruz"))
        #expect(DeskLookup("FC1:abc def") == nil)
        #expect(DeskLookup("1005") == nil && DeskLookup.isBareNumber("1005") && DeskLookup.isBareNumber("#1005"))
        #expect(DeskLookup("99999999999999999999 Brown") == nil, "a number past any order's is no number, and no trap")
        #expect(DeskLookup("1005 B") == nil)
        #expect(!DeskLookup.isBareNumber("FC1:1005"))
    }
}

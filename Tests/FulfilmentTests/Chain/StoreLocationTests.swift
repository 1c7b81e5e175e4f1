import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 26: a store may say where it is (for the best price's distances); a store that has not
/// said answers as before, without a `location`.
@Suite("Chain admin: a store's location")
struct StoreLocationTests {
    @Test("an admin opens a store with a location and moves it; out of range is 422; without one nothing changes")
    func locations() async throws {
        try await withApp { app in
            let admin = try await app.signInAdmin()
            let opened = try await app.request(
                .post, "/v1/stores",
                json: [
                    "code": "LOC-1", "name": "Half Way Tree", "currency": "JMD", "location": ["lat": .number(18.0123), "lng": .number(-76.7991)],
                ],
                token: admin.token)
            #expect(opened.status == .created, "\(opened.text)")
            let store = try #require(opened.json["id"].string)
            #expect(opened.json["location"]["lat"].degrees == 18.0123)
            #expect(try await app.request(.get, "/v1/stores/\(store)").json["location"]["lng"].degrees == -76.7991)

            let moved = try await app.request(
                .patch, "/v1/stores/\(store)", json: ["location": ["lat": .number(18.4762), "lng": .number(-77.8939)]], token: admin.token)
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(moved.json["location"]["lat"].degrees == 18.4762)
            // A change of name alone keeps the location.
            let renamed = try await app.request(.patch, "/v1/stores/\(store)", json: ["name": "Montego Bay"], token: admin.token)
            #expect(renamed.json["location"]["lng"].degrees == -77.8939)

            for bad: JSONValue in [["lat": 91, "lng": 0], ["lat": 0, "lng": .number(-180.5)], ["lat": .number(-90.01), "lng": 10]] {
                let refused = try await app.request(.patch, "/v1/stores/\(store)", json: ["location": bad], token: admin.token)
                #expect(refused.status == .unprocessableContent, "\(bad): \(refused.text)")
                #expect(refused.errorCode == "invalid_field")
                #expect(refused.json["error"]["details"]["field"].string == "location")
                let notOpened = try await app.request(
                    .post, "/v1/stores", json: ["code": "LOC-2", "name": "Nowhere", "currency": "JMD", "location": bad], token: admin.token)
                #expect(notOpened.status == .unprocessableContent)
            }
            let halfAPlace = try await app.request(.patch, "/v1/stores/\(store)", json: ["location": ["lat": 18]], token: admin.token)
            #expect(halfAPlace.status.code / 100 == 4, "\(halfAPlace.text)")
            #expect(try await app.request(.get, "/v1/stores/\(store)").json["location"]["lat"].degrees == 18.4762)

            // A store without a location answers as it did: no `location` key at all.
            let plain = try await app.request(
                .post, "/v1/stores", json: ["code": "LOC-3", "name": "Spanish Town", "currency": "JMD"], token: admin.token)
            #expect(plain.status == .created)
            #expect(!plain.json.has("location"))
            #expect(try await app.request(.get, "/v1/stores").json["items"].array.contains { $0["code"].string == "LOC-3" && !$0.has("location") })

            // The database holds both or neither, in range, whoever writes.
            await #expect(throws: (any Error).self) {
                try await sql("UPDATE stores SET latitude = NULL WHERE id = $1", [store], on: app.database)
            }
            await #expect(throws: (any Error).self) {
                try await sql("UPDATE stores SET latitude = 'NaN' WHERE id = $1", [store], on: app.database)
            }
        }
    }
}

extension JSONValue {
    /// A JSON number as degrees (a whole number decodes as `int`).
    var degrees: Double? {
        switch self {
        case .number(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
}

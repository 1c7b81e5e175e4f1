import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 13: `fulfilment store ...`, the chain admin's command line, run as the built binary.
@Suite("fulfilment store: stores and aisles from the command line")
struct StoreCommandTests {
    @Test("store create, aisle add and list; an aisle in use is refused with the reason and exit 1")
    func storeAndAisles() async throws {
        try await withTestDatabase { database in
            let url = ["--database-url", Backup.conninfo(database)]
            let created = try await ServiceProcess.run(
                ["store", "create", "--code", "OCHO-1", "--name", "Ocho Rios", "--currency", "JMD", "--address", "Main St"] + url)
            #expect(created.status == 0, "\(created.output)")
            #expect(created.output.contains("Created store OCHO-1 Ocho Rios"))
            let taken = try await ServiceProcess.run(["store", "create", "--code", "OCHO-1", "--name", "Again", "--currency", "JMD"] + url)
            #expect(taken.status == 1)
            #expect(taken.output.contains("Another store already has the code 'OCHO-1'."), "\(taken.output)")
            // Where it is (issue 26): both or neither, in range.
            let located = try await ServiceProcess.run(
                ["store", "update", "--store", "OCHO-1", "--latitude", "18.4074", "--longitude=-77.1031"] + url)
            #expect(located.status == 0, "\(located.output)")
            #expect(try await sql("SELECT latitude, longitude FROM stores WHERE code = 'OCHO-1'", on: database) == [["18.4074", "-77.1031"]])
            let halfAPlace = try await ServiceProcess.run(["store", "update", "--store", "OCHO-1", "--latitude", "18.4"] + url)
            #expect(halfAPlace.status == 1)
            #expect(halfAPlace.output.contains("Give --latitude and --longitude together."), "\(halfAPlace.output)")
            let offTheMap = try await ServiceProcess.run(["store", "update", "--store", "OCHO-1", "--latitude", "95", "--longitude", "0"] + url)
            #expect(offTheMap.status == 1)

            for (code, name, walk, zone) in [("1", "Bakery", "1", "ambient"), ("6", "Dairy", "6", "chilled")] {
                let added = try await ServiceProcess.run(
                    ["store", "aisle", "add", "--store", "OCHO-1", "--code", code, "--name", name, "--walk-order", walk, "--zone", zone] + url)
                #expect(added.status == 0, "\(added.output)")
            }
            let renamed = try await ServiceProcess.run(
                ["store", "aisle", "update", "--store", "OCHO-1", "--aisle", "6", "--name", "Dairy & Eggs"] + url)
            #expect(renamed.status == 0, "\(renamed.output)")
            // The listing is stdout alone, for scripts; anything logged goes to stderr.
            let listed = try await Subprocess.run(
                ServiceProcess.binary, ["store", "aisle", "list", "--store", "OCHO-1"] + url, environment: ["PGPASSWORD": database.password])
            #expect(listed.output.split(separator: "\n").map(String.init) == ["1\t1\tambient\tBakery", "6\t6\tchilled\tDairy & Eggs"])

            // Milk sits in the dairy aisle: removing it is refused, and says why.
            let store = try await sql("SELECT id FROM stores WHERE code = 'OCHO-1'", on: database)[0][0]!
            let product = try await sql(
                "INSERT INTO products (sku, name, price_amount, currency) VALUES ('MILK-1', 'Milk', 300, 'JMD') RETURNING id",
                on: database)[0][0]!
            try await sql(
                "INSERT INTO stock (store_id, product_id, on_hand, aisle_id, bay) SELECT $1, $2, 5, id, 1 FROM aisles WHERE store_id = $1 AND code = '6'",
                [store, product], on: database)
            let inUse = try await ServiceProcess.run(["store", "aisle", "remove", "--store", "OCHO-1", "--aisle", "6"] + url)
            #expect(inUse.status == 1)
            #expect(inUse.output.contains("1 product(s) are placed in this aisle"), "\(inUse.output)")
            let removed = try await ServiceProcess.run(["store", "aisle", "remove", "--store", "OCHO-1", "--aisle", "1"] + url)
            #expect(removed.status == 0, "\(removed.output)")
            #expect(try await sql("SELECT code FROM aisles WHERE store_id = $1", [store], on: database) == [["6"]])

            // An admin belongs to no store: `user create --role admin --store` is refused before anything is asked.
            let adminWithStore = try await ServiceProcess.run(
                ["user", "create", "--email", "a@example.com", "--role", "admin", "--store", "OCHO-1"] + url)
            #expect(adminWithStore.status != 0)
            #expect(adminWithStore.output.contains("belong to no store"), "\(adminWithStore.output)")
        }
    }
}

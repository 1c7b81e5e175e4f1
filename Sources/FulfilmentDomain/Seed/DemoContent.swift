import Foundation
import Logging

/// The demo's community (issue 31): two news items from the demo store's manager (one pinned)
/// and two recipes made of demo products, one from the demo customer and one from the manager.
/// Ackee and saltfish names a product the demo store does not carry (salted codfish, stocked
/// only at the second branch), so recipe-to-cart shows a `not_carried` line on the first
/// `make run`. Written through the same services the API uses, after the demo accounts exist.
public enum DemoContent {
    public static let recipeTitles = ["Rice and peas", "Ackee and saltfish"]
    /// The catalogue line the demo store does not carry (the second branch does).
    public static let uncarried = (sku: "QC-0900", name: "Salted Codfish 500g")

    public static func prepare(into database: Database, store: StoreID, managerEmail: String, customerEmail: String, logger: Logger)
        async throws
    {
        guard let (managerUser, _) = try await UserQueries.credentials(email: managerEmail, on: database.client, logger: logger),
            let (customerUser, _) = try await UserQueries.credentials(email: customerEmail, on: database.client, logger: logger)
        else { return }
        let manager = Identity(userID: managerUser.id, role: .manager, storeID: store, sessionID: SessionID(UUID()))
        let customer = Identity(userID: customerUser.id, role: .customer, storeID: nil, sessionID: SessionID(UUID()))
        let scope = try StoreScope(staff: manager)
        let news = News(database: database)
        _ = try await news.create(
            try NewsItem.Draft(
                title: "Click and collect is open",
                bodyMarkdown: """
                    Order by **noon** and collect from **4 pm** the same day at the customer desk, or tap *I'm here* in the car park.

                    - Pay online or at the desk
                    - Bring your QR receipt
                    """, published: true, pinned: true), by: manager.userID, in: scope, logger: logger)
        _ = try await news.create(
            try NewsItem.Draft(
                title: "Ackee season", bodyMarkdown: "Grace ackee is on sale this week. Try the community's *ackee and saltfish* recipe.",
                published: true, pinned: false), by: manager.userID, in: scope, logger: logger)

        func product(_ name: String) async throws -> String? {
            try await DemoSeedQueries.productID(named: name, on: database.client, logger: logger)?.description
        }
        let codfish = try await DemoSeedQueries.insertCatalogueOnly(
            sku: uncarried.sku, name: uncarried.name, price: 125_000, currency: DemoCatalogue.currency,
            stockedAt: DemoCatalogue.secondStoreCode, on: database.client, logger: logger)
        let recipes = Recipes(database: database)
        _ = try await recipes.create(
            try Recipe.Draft(
                title: recipeTitles[0],
                bodyMarkdown: """
                    Soak the peas overnight, boil them soft, then add the coconut milk, escallion, thyme and a whole scotch bonnet
                    (do not burst it). Stir in the washed rice and steam, covered, for 25 minutes.
                    """, servings: 6,
                ingredients: [
                    ("2 cups long grain rice", try await product("Long Grain Rice"), 1), ("1 cup dried red peas", try await product("Red Peas"), 1),
                    ("1 tin coconut milk", try await product("Coconut Milk"), 1), ("Escallion and thyme", try await product("Escallion"), 1),
                    ("1 scotch bonnet pepper", try await product("Scotch Bonnet"), 1), ("6 pimento seeds", nil, nil),
                ]), at: store, by: customer, logger: logger)
        _ = try await recipes.create(
            try Recipe.Draft(
                title: recipeTitles[1],
                bodyMarkdown: "Soak and boil the saltfish, flake it, fry it with onion, pepper and thyme, then fold in the ackee **gently**.",
                servings: 4,
                ingredients: [
                    ("1 tin ackee", try await product("Ackee"), 1), ("Salted codfish", codfish.description, 1),
                    ("Escallion and thyme", try await product("Escallion"), 1), ("Half a scotch bonnet", try await product("Scotch Bonnet"), 1),
                    ("Vegetable oil", try await product("Vegetable Oil"), 1),
                ]), at: store, by: manager, logger: logger)
    }
}

import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Reviews and moderation: verified purchases rate products; reports reach the store's moderators, who hide, restore and block")
struct ReviewAndModerationTests {
    @Test("only a customer who collected the product reviews it, once, editing after; products carry the average; helpful counts once")
    func reviews() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (buyer, order, product) = try await app.placeOrder(store: store)
            let review = ["rating": JSONValue.int(4), "bodyMarkdown": "Fresh <img src=x onerror=alert(1)>"]
            let early = try await app.request(.put, "/v1/products/\(product)/review", json: .object(review), token: buyer.token)
            #expect(early.status == .forbidden && early.errorCode == "not_purchased", "placed is not collected")

            try await app.collect(order, by: staff)
            let first = try await app.request(.put, "/v1/products/\(product)/review", json: .object(review), token: buyer.token)
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["verifiedPurchase"].bool == true && first.json["storeId"].string == store)
            #expect(first.json["bodyHtml"].string?.contains("<img") == false, "the tag is shown as text, never made")
            let edited = try await app.request(.put, "/v1/products/\(product)/review", json: ["rating": 2], token: buyer.token)
            #expect(edited.status == .ok && edited.json["id"] == first.json["id"] && edited.json["rating"].int == 2)

            let second = try await app.registerCustomer()
            try await app.fillCart(second, store: store, [(product, 1)])
            let secondOrder = try await app.checkout(second).json
            try await app.collect(secondOrder, by: staff)
            #expect(try await app.request(.put, "/v1/products/\(product)/review", json: ["rating": 5], token: second.token).status == .created)

            let listed = try await app.request(.get, "/v1/products/\(product)?storeId=\(store)")
            #expect(listed.json["rating"]["count"].int == 2 && listed.json["rating"]["average"] == .number(3.5), "\(listed.json["rating"])")

            let reader = try await app.registerCustomer()
            let firstID = try #require(first.json["id"].string)
            #expect(try await app.request(.post, "/v1/reviews/\(firstID)/helpful", token: reader.token).json["helpfulCount"].int == 1)
            #expect(try await app.request(.post, "/v1/reviews/\(firstID)/helpful", token: reader.token).json["helpfulCount"].int == 1)
            #expect(try await app.request(.post, "/v1/reviews/\(firstID)/helpful", token: buyer.token).errorCode == "own_review")
            let helpful = try await app.request(.get, "/v1/products/\(product)/reviews?sort=helpful")
            #expect(helpful.json["items"].array.first?["id"].string == firstID)
            let newest = try await app.request(.get, "/v1/products/\(product)/reviews")
            #expect(newest.json["nextCursor"] == .null)
            #expect(newest.json["items"].array.first?["id"].string != firstID)
        }
    }

    @Test("a report reaches the store's manager, not another's; hidden content is gone for all but its author and moderators; restore brings it back")
    func reportsAndHiding() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, store)
            let id = try #require(try await app.shareRecipe(cook, title: "Rude recipe", [("Salt", nil, nil)])["id"].string)
            let reader = try await app.registerCustomer()
            let report = try await app.request(
                .post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(id), "reason": "rude"], token: reader.token)
            #expect(report.status == .created)
            let again = try await app.request(.post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(id)], token: reader.token)
            #expect(again.status == .ok && again.json["id"] == report.json["id"])

            #expect(
                try await app.request(.get, "/v1/moderation/reports", token: manager.token).json["items"].array.map { $0["contentId"].string } == [id]
            )
            #expect(try await app.request(.get, "/v1/moderation/reports", token: otherManager.token).json["items"].array.isEmpty)
            #expect(try await app.request(.post, "/v1/moderation/recipe/\(id)/hide", token: otherManager.token).status == .notFound)

            let hidden = try await app.request(.post, "/v1/moderation/recipe/\(id)/hide", token: manager.token)
            #expect(hidden.json["hidden"].bool == true && hidden.json["resolvedReports"].int == 1)
            #expect(try await app.request(.get, "/v1/recipes/\(id)").status == .notFound)
            #expect(try await app.request(.get, "/v1/recipes/\(id)", token: reader.token).status == .notFound)
            #expect(try await app.request(.get, "/v1/recipes?q=rude").json["items"].array.isEmpty)
            #expect(try await app.request(.get, "/v1/recipes/\(id)", token: cook.token).json["hidden"].bool == true)
            #expect(try await app.request(.get, "/v1/recipes/\(id)", token: manager.token).status == .ok)
            #expect(try await app.request(.get, "/v1/moderation/reports", token: manager.token).json["items"].array.isEmpty)
            #expect(try await app.request(.get, "/v1/moderation/reports?state=resolved", token: manager.token).json["items"].array.count == 1)

            let restored = try await app.request(.post, "/v1/moderation/recipe/\(id)/restore", token: manager.token)
            #expect(restored.json["hidden"].bool == false)
            #expect(try await app.request(.get, "/v1/recipes/\(id)").status == .ok)
        }
    }

    @Test("a manager's block is for their store: the author still posts at another, whose manager sees no block; the admin's is everywhere")
    func blocksPerStore() async throws {
        try await withApp { app in
            let storeA = try await app.createStore()
            let storeB = try await app.createStore()
            let managerA = try await app.signIn(role: .manager, store: storeA)
            let managerB = try await app.signIn(role: .manager, store: storeB)
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, storeA)
            let atA = try #require(try await app.shareRecipe(cook, [("Salt", nil, nil)])["id"].string)
            try await app.chooseStore(cook, storeB)
            let atB = try #require(try await app.shareRecipe(cook, [("Pepper", nil, nil)])["id"].string)

            // Store B's manager blocks the cook: at B only.
            let block = try await app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(cook.userID)], token: managerB.token)
            #expect(block.status == .ok && block.json["storeId"].string == storeB)
            let atBRefused = try await app.request(.post, "/v1/recipes/\(atB)/comments", json: ["bodyMarkdown": "at B"], token: cook.token)
            #expect(atBRefused.status == .forbidden && atBRefused.errorCode == "posting_blocked")
            let newAtB = try await app.request(
                .post, "/v1/recipes", json: ["title": "Curry", "bodyMarkdown": "Stir.", "servings": 2, "ingredients": [["text": "Cumin"]]],
                token: cook.token)
            #expect(newAtB.errorCode == "posting_blocked", "a new recipe at B is refused too")
            let atAComment = try await app.request(.post, "/v1/recipes/\(atA)/comments", json: ["bodyMarkdown": "at A"], token: cook.token)
            #expect(atAComment.status == .created, "store B's block reaches store A")
            #expect(try await app.request(.get, "/v1/moderation/blocks", token: managerA.token).json["items"].array.isEmpty)
            #expect(try await app.request(.delete, "/v1/moderation/blocks/\(cook.userID)", token: managerA.token).status == .notFound)

            // Store A's manager blocks them too: two blocks, each lifted by its own store.
            #expect(
                try await app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(cook.userID)], token: managerA.token).status == .ok)
            #expect(
                try await app.request(.post, "/v1/recipes/\(atA)/comments", json: ["bodyMarkdown": "at A"], token: cook.token).errorCode
                    == "posting_blocked")
            #expect(try await app.request(.delete, "/v1/moderation/blocks/\(cook.userID)", token: managerB.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/moderation/blocks", token: managerA.token).json["items"].array.count == 1)
            #expect(
                try await app.request(.post, "/v1/recipes/\(atB)/comments", json: ["bodyMarkdown": "at B"], token: cook.token).status == .created)

            // The admin's block is chain-wide; the admin lifts every block.
            let admin = try await app.signInAdmin()
            #expect(try await app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(cook.userID)], token: admin.token).status == .ok)
            #expect(
                try await app.request(.post, "/v1/recipes/\(atB)/comments", json: ["bodyMarkdown": "at B"], token: cook.token).errorCode
                    == "posting_blocked")
            #expect(try await app.request(.delete, "/v1/moderation/blocks/\(cook.userID)", token: admin.token).status == .noContent)
            #expect(try await sql("SELECT count(*) FROM posting_blocks", on: app.database)[0][0] == "0")
            // A moderator hiding a blocked author's recipe is not a post: it is never refused.
            #expect(
                try await app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(cook.userID)], token: managerA.token).status == .ok)
            #expect(try await app.request(.post, "/v1/moderation/recipe/\(atA)/hide", token: managerA.token).json["hidden"].bool == true)
        }
    }

    @Test("a blocked author cannot post; posting is limited per account with Retry-After; unblocked, they post again")
    func blocksAndLimits() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, store)
            let id = try #require(try await app.shareRecipe(cook, [("Salt", nil, nil)])["id"].string)

            let stranger = try await app.registerCustomer()
            #expect(
                try await app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(stranger.userID)], token: manager.token).status
                    == .notFound, "a manager blocks only authors of their store's content")
            let block = try await app.request(
                .post, "/v1/moderation/blocks", json: ["userId": .string(cook.userID), "reason": "spam"], token: manager.token)
            #expect(block.status == .ok && block.json["userId"].string == cook.userID)
            let refused = try await app.request(.post, "/v1/recipes/\(id)/comments", json: ["bodyMarkdown": "me again"], token: cook.token)
            #expect(refused.status == .forbidden && refused.errorCode == "posting_blocked")
            let blocks = try await app.request(.get, "/v1/moderation/blocks", token: manager.token).json
            #expect(blocks["items"].array.count == 1 && blocks["nextCursor"] == .null)
            #expect(try await app.request(.delete, "/v1/moderation/blocks/\(cook.userID)", token: manager.token).status == .noContent)

            var statuses: [Int] = []
            for n in 0..<PostingQueries.limit {
                statuses.append(
                    try await app.request(.post, "/v1/recipes/\(id)/comments", json: ["bodyMarkdown": .string("comment \(n)")], token: cook.token)
                        .status.code)
            }
            // The recipe itself was the first post of the window.
            #expect(statuses.filter { $0 == 201 }.count == PostingQueries.limit - 1)
            let limited = try await app.request(.post, "/v1/recipes/\(id)/comments", json: ["bodyMarkdown": "one more"], token: cook.token)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_posts")
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(try await app.request(.get, "/v1/recipes/\(id)/comments?limit=100").json["items"].array.count == PostingQueries.limit - 1)
        }
    }
}

import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Store news and recipes: written in Markdown, answered as sanitised HTML, searched in full text, changed only by their authors")
struct NewsAndRecipeTests {
    @Test("a manager drafts, publishes and pins news; readers see only what is published, pinned first; the body's script is gone")
    func news() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            func write(_ title: String, published: Bool, pinned: Bool = false) async throws -> String {
                let reply = try await app.request(
                    .post, "/v1/stores/\(store)/news",
                    json: [
                        "title": .string(title), "bodyMarkdown": "**New** hours <script>alert(1)</script> [x](javascript:alert(1))",
                        "published": .bool(published), "pinned": .bool(pinned),
                    ], token: manager.token)
                #expect(reply.status == .created, "\(reply.text)")
                return reply.json["id"].string ?? ""
            }
            let older = try await write("Older", published: true)
            let draft = try await write("Draft", published: false)
            let pinned = try await write("Pinned", published: true, pinned: true)
            let newer = try await write("Newer", published: true)

            let list = try await app.request(.get, "/v1/stores/\(store)/news?limit=2")
            #expect(list.json["items"].array.map { $0["id"].string } == [pinned, newer])
            let rest = try await app.request(.get, "/v1/stores/\(store)/news?limit=2&cursor=\(list.json["nextCursor"].string ?? "")")
            #expect(rest.json["items"].array.map { $0["id"].string } == [older])
            #expect(rest.json["nextCursor"] == .null, "the last page says so")
            let html = list.json["items"].array.first?["bodyHtml"].string ?? ""
            #expect(html.contains("<strong>New</strong>") && !html.contains("<script") && !html.contains("javascript:"))

            #expect(try await app.request(.get, "/v1/stores/\(store)/news/\(draft)").status == .notFound)
            #expect(try await app.request(.get, "/v1/stores/\(store)/news/\(draft)", token: staff.token).status == .ok)
            let published = try await app.request(
                .put, "/v1/stores/\(store)/news/\(draft)", json: ["title": "Draft, now out", "bodyMarkdown": "Hello", "published": true],
                token: manager.token)
            #expect(published.status == .ok && published.json["publishedAt"].string != nil)
            #expect(try await app.request(.get, "/v1/stores/\(store)/news/\(draft)").status == .ok)

            let blank = try await app.request(.post, "/v1/stores/\(store)/news", json: ["title": "  ", "bodyMarkdown": ""], token: manager.token)
            #expect(blank.status == .unprocessableContent)
            #expect(
                try await app.request(.post, "/v1/stores/\(store)/news", json: ["title": "x", "bodyMarkdown": ""], token: staff.token).status
                    == .forbidden)

            let reader = try await app.registerCustomer()
            let comment = try await app.request(
                .post, "/v1/stores/\(store)/news/\(newer)/comments", json: ["bodyMarkdown": "Great *news*"], token: reader.token)
            #expect(comment.status == .created && comment.json["bodyHtml"].string == "<p>Great <em>news</em></p>")
            let comments = try await app.request(.get, "/v1/stores/\(store)/news/\(newer)/comments")
            #expect(comments.json["items"].array.count == 1)
            #expect(try await app.request(.get, "/v1/stores/\(store)/news/\(newer)").json["commentCount"].int == 1)
            #expect(try await app.request(.delete, "/v1/stores/\(store)/news/\(newer)", token: manager.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/stores/\(store)/news/\(newer)/comments").status == .notFound)
        }
    }

    @Test("recipes are found by words in any form, by a product they use, and say what share a store carries; only the author edits or deletes")
    func recipes() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let ackee = try await app.addProduct(store: store, name: "Ackee")
            let saltfish = try await app.addProduct(store: try await app.createStore(), name: "Saltfish")
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, store)
            let breakfast = try await app.shareRecipe(
                cook, title: "Ackee and saltfish", body: "Boil the saltfish, then **fry** everything.", servings: 4,
                [("1 tin ackee", ackee, 1), ("Saltfish", saltfish, 1), ("Onions", nil, nil)])
            let id = try #require(breakfast["id"].string)
            #expect(breakfast["storeId"].string == store, "a customer's recipe is at the store they chose")
            _ = try await app.shareRecipe(cook, title: "Fried dumplings", body: "Knead.", [("Flour", nil, nil)])

            let stemmed = try await app.request(.get, "/v1/recipes?q=boiling")
            #expect(stemmed.json["items"].array.map { $0["id"].string } == [id])
            let byProduct = try await app.request(.get, "/v1/recipes?productId=\(saltfish)&storeId=\(store)")
            let found = try #require(byProduct.json["items"].array.first)
            #expect(found["carried"]["carried"].int == 1 && found["carried"]["of"].int == 3)
            #expect(found["ingredients"].array.map { $0["carried"].bool } == [true, false, nil])
            #expect(found["bodyHtml"].string?.contains("<strong>fry</strong>") == true)

            let stranger = try await app.registerCustomer()
            let edit = try await app.request(
                .put, "/v1/recipes/\(id)", json: ["title": "Mine now", "bodyMarkdown": "", "servings": 1, "ingredients": []],
                token: stranger.token)
            #expect(edit.status == .forbidden && edit.errorCode == "not_author")
            #expect(try await app.request(.delete, "/v1/recipes/\(id)", token: stranger.token).status == .forbidden)
            let own = try await app.request(
                .put, "/v1/recipes/\(id)",
                json: [
                    "title": "Ackee, saltfish and callaloo", "bodyMarkdown": "Steam.", "servings": 2,
                    "ingredients": [["text": "Callaloo"]],
                ], token: cook.token)
            #expect(own.status == .ok && own.json["ingredients"].array.count == 1 && own.json["servings"].int == 2)
            #expect(try await app.request(.get, "/v1/recipes?q=callaloo").json["items"].array.count == 1)

            let unknown = try await app.request(
                .post, "/v1/recipes",
                json: ["title": "x", "bodyMarkdown": "", "servings": 1, "ingredients": [["text": "y", "productId": .string(UUID().uuidString)]]],
                token: cook.token)
            #expect(unknown.status == .unprocessableContent && unknown.json["error"]["details"]["field"].string == "ingredients")
            #expect(try await app.request(.delete, "/v1/recipes/\(id)", token: cook.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/recipes/\(id)").status == .notFound)
        }
    }
}

@Suite("News and recipe images: checked as product images are, set by the item's writer, served to its readers")
struct ContentImageTests {
    @Test("a recipe's author and a store's manager set images; others are refused; a non-image is 415; readers get the bytes and an imageUrl")
    func images() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let cook = try await app.registerCustomer()
            let recipe = try #require(try await app.shareRecipe(cook, [("Rice", nil, nil)])["id"].string)
            let path = "/v1/recipes/\(recipe)/image"
            let stranger = try await app.registerCustomer()
            #expect(try await app.upload(path, bytes: tinyPNG, contentType: "image/png", token: stranger.token).status == .forbidden)
            #expect(
                try await app.upload(path, bytes: Array("<svg/>".utf8), contentType: "image/png", token: cook.token).status == .unsupportedMediaType)
            let stored = try await app.upload(path, bytes: tinyPNG, contentType: "image/png", token: cook.token)
            #expect(stored.status == .ok && stored.json["imageUrl"].string == path)
            let served = try await app.request(.get, path)
            #expect(served.status == .ok && Array(served.body) == tinyPNG)

            let news = try #require(
                try await app.request(
                    .post, "/v1/stores/\(store)/news", json: ["title": "Draft", "bodyMarkdown": "", "published": false], token: manager.token
                ).json["id"].string)
            let newsPath = "/v1/stores/\(store)/news/\(news)/image"
            #expect(try await app.upload(newsPath, bytes: tinyPNG, contentType: "image/png", token: manager.token).status == .ok)
            #expect(try await app.request(.get, newsPath).status == .notFound, "a draft's image is not public")
            #expect(try await app.request(.get, newsPath, token: manager.token).status == .ok)
        }
    }
}

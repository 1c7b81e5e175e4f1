import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The store's news and the community's recipes in the shop (issue 45), posted as a browser
/// without script does: a visitor reads them, a customer comments, reports, puts a recipe in the
/// cart scaled to servings and finds it in the store; bad input is a sentence that changes
/// nothing, and what is not there for the reader (another store's, hidden, a draft) is not found.
@Suite("The shop's news and recipes, read by visitors and written to by customers, without script")
struct ShopCommunityTests {
    /// A visitor's browser that chose `store` (its cookie).
    static func visitor(_ store: String) -> String { "\(ShopVisit.storeCookie)=\(store)" }

    /// The browser's cookie for an API session: the same session.
    static func cookie(_ session: Session) -> String { "\(ConsoleSession.cookieName)=\(session.token)" }

    /// Writes a news item at `store` through the API as its manager; answers its id.
    static func news(
        _ app: TestApp, _ manager: Session, _ store: String, _ title: String, body: String = "Hello", published: Bool = true,
        pinned: Bool = false
    ) async throws -> String {
        let reply = try await app.request(
            .post, "/v1/stores/\(store)/news",
            json: ["title": .string(title), "bodyMarkdown": .string(body), "published": .bool(published), "pinned": .bool(pinned)],
            token: manager.token)
        guard reply.status == .created, let id = reply.json["id"].string else { throw TestSetupError("news: \(reply.status) \(reply.text)") }
        return id
    }

    /// Where `marker` first appears in `page` (for the order of items), or nil.
    static func position(of marker: String, in page: String) -> Int? {
        page.range(of: marker).map { page.distance(from: page.startIndex, to: $0.lowerBound) }
    }

    /// The `href` of the link with this `id`, as the browser follows it.
    static func link(_ id: String, in page: String) -> String? {
        guard let range = page.range(of: "id=\"\(id)\" href=\"") else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("a visitor reads the store's news: pinned first, its image, the day on the store's clock, a sanitised body, older news a page on")
    func visitorReadsNews() async throws {
        try await withApp { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(zone: "America/Jamaica"))
            let hostile = "**New** hours <script>alert(1)</script> [x](javascript:alert(1))"
            let older = try await Self.news(app, manager, store, "Older", body: hostile)
            let pinned = try await Self.news(app, manager, store, "Pinned", pinned: true)
            let newer = try await Self.news(app, manager, store, "Newer <b>bold</b>", body: hostile)
            let draft = try await Self.news(app, manager, store, "Draft", published: false)
            // 03:00 UTC on 1 March is still 28 February in Kingston.
            try await sql("UPDATE news_items SET published_at = '2026-03-01T03:00:00Z' WHERE id = $1", [older], on: app.database)
            let image = "/v1/stores/\(store)/news/\(newer)/image"
            #expect(try await app.upload(image, bytes: tinyPNG, contentType: "image/png", token: manager.token).status == .ok)
            let cookie = Self.visitor(store)

            let list = try await app.form(.get, "/shop/news", cookie: cookie)
            #expect(list.status == .ok, "\(list.text)")
            let page = list.text
            let order = [pinned, newer, older].map { Self.position(of: "id=\"news-\($0)\"", in: page) }
            #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) }, "pinned first, then newest")
            #expect(!page.contains("news-\(draft)"), "a draft is not news")
            #expect(page.contains("src=\"\(image)\""))
            #expect(page.contains("<time datetime=\"2026-02-28\">Sat 28 Feb 2026</time>"), "the store's day, not the server's")
            #expect(page.contains("Newer &lt;b&gt;bold&lt;/b&gt;") && !page.contains("<b>bold"))
            #expect(page.contains("New hours") && !page.contains("**New**") && !page.contains("<script>alert"))
            #expect(page.contains("href=\"/shop/recipes\""), "the recipes are a link away")

            let article = try await app.form(.get, "/shop/news/\(newer)", cookie: cookie)
            #expect(article.status == .ok)
            #expect(article.text.contains("<strong>New</strong>") && !article.text.contains("<script>alert"))
            #expect(!article.text.contains("javascript:"))
            #expect(article.text.contains("src=\"\(image)\"") && article.text.contains("id=\"comment-sign-in\""))
            #expect(!article.text.contains("name=\"bodyMarkdown\""), "a visitor is asked to sign in, not given the form")

            // A draft, another store's item and an address that is no id are not found, on the shop's own page.
            let elsewhere = try await app.createStore(name: "Elsewhere")
            let theirs = try await Self.news(app, try await app.signIn(role: .manager, store: elsewhere), elsewhere, "Theirs")
            for id in [draft, theirs, "not-an-id", UUID().uuidString] {
                let missing = try await app.form(.get, "/shop/news/\(id)", cookie: cookie)
                #expect(missing.status == .notFound, "\(id): \(missing.status)")
                #expect(missing.text.contains("id=\"not-found\"") && missing.text.contains("href=\"/shop/news\""))
            }

            // A visitor's comment asks them to sign in and come back; nothing is written.
            let comment = try await app.form(.post, "/shop/news/\(newer)/comments", ["bodyMarkdown": "Hi"], cookie: cookie)
            #expect(comment.status == .seeOther && comment.headers[.location] == "/?next=/shop/news/\(newer)", "\(comment.status)")
            #expect(try await sql("SELECT count(*) FROM comments", on: app.database) == [["0"]])

            // Older news is a page on, by the list's cursor.
            for index in 1...9 { _ = try await Self.news(app, manager, store, "Story \(index)") }
            let first = try await app.form(.get, "/shop/news", cookie: cookie).text
            #expect(first.components(separatedBy: "class=\"story\"").count - 1 == ShopController.newsPageSize)
            let more = try #require(Self.link("more-news", in: first))
            let second = try await app.form(.get, more, cookie: cookie)
            #expect(second.status == .ok && second.text.contains("news-\(older)") && !second.text.contains("news-\(pinned)"))
            #expect(second.text.components(separatedBy: "class=\"story\"").count - 1 == 2)
            #expect(try await app.form(.get, "/shop/news?cursor=bogus", cookie: cookie).text.contains("notice-refused"))

            // Without a store there is no store's news yet: the visitor chooses one.
            let storeless = try await app.form(.get, "/shop/news")
            #expect(storeless.status == .seeOther && storeless.headers[.location] == "/shop/stores")
        }
    }

    @Test("a customer comments on news and a recipe, and reports another's comment; a blank, too long or forged comment changes nothing")
    func customerComments() async throws {
        try await withApp { app in
            let (store, manager) = try await app.storeWithCalendar()
            let item = try await Self.news(app, manager, store, "Opening hours")
            let writer = try await app.registerCustomer()
            try await app.chooseStore(writer, store)
            let cookie = Self.cookie(writer)
            let path = "/shop/news/\(item)"
            let csrf = try await app.csrfToken(on: path, cookie: cookie)

            let posted = try await app.form(
                .post, "\(path)/comments", ["_csrf": csrf, "bodyMarkdown": "Great *news* <script>alert(1)</script>", "back": path],
                cookie: cookie)
            #expect(posted.status == .seeOther, "\(posted.text)")
            let location = try #require(posted.headers[.location])
            let comment = try #require(try await sql("SELECT id FROM comments", on: app.database).first?[0] ?? nil)
            #expect(location == "\(path)?notice=commented#comment-\(comment)")
            let shown = try await app.form(.get, "\(path)?notice=commented", cookie: cookie).text
            #expect(shown.contains("Your comment is posted.") && shown.contains("id=\"comment-\(comment)\""))
            #expect(shown.contains("<em>news</em>") && !shown.contains("<script>alert"))
            #expect(!shown.contains("comments/\(comment)/report"), "one does not report one's own comment")

            let tooLong = String(repeating: "a", count: UserComment.bodyLength + 1)
            for (body, sentence) in [("   ", "Write something"), (tooLong, "At most \(UserComment.bodyLength) characters.")] {
                let refused = try await app.form(.post, "\(path)/comments", ["_csrf": csrf, "bodyMarkdown": body], cookie: cookie)
                #expect(refused.status == .unprocessableContent, "\(refused.status)")
                #expect(refused.text.contains("notice-refused") && refused.text.contains(sentence))
                #expect(body.count < 10 || refused.text.contains(">\(tooLong)</textarea>"), "what they wrote is kept")
            }
            let forged = try await app.form(.post, "\(path)/comments", ["bodyMarkdown": "Forged"], cookie: cookie)
            #expect(forged.status == .forbidden)
            let elsewhere = try await app.form(
                .post, "\(path)/comments", ["_csrf": csrf, "bodyMarkdown": "Elsewhere"], cookie: cookie, origin: "https://evil.example")
            #expect(elsewhere.status == .forbidden)
            #expect(try await sql("SELECT count(*) FROM comments", on: app.database) == [["1"]])

            // Another customer reports it, once; the second time is said so.
            let reader = try await app.registerCustomer()
            try await app.chooseStore(reader, store)
            let readerCookie = Self.cookie(reader)
            let readerPage = try await app.form(.get, path, cookie: readerCookie).text
            #expect(readerPage.contains("action=\"\(path)/comments/\(comment)/report\""))
            let readerCSRF = try await app.csrfToken(on: path, cookie: readerCookie)
            let report = "\(path)/comments/\(comment)/report"
            let reported = try await app.form(.post, report, ["_csrf": readerCSRF, "reason": "Rude"], cookie: readerCookie)
            #expect(reported.headers[.location] == "\(path)?notice=reported#comment-\(comment)", "\(reported.status) \(reported.text)")
            let again = try await app.form(.post, report, ["_csrf": readerCSRF], cookie: readerCookie)
            #expect(again.headers[.location] == "\(path)?notice=reported-before#comment-\(comment)")
            #expect(try await sql("SELECT count(*), min(reason) FROM content_reports", on: app.database) == [["1", "Rude"]])
            #expect(try await app.form(.get, "\(path)?notice=reported", cookie: readerCookie).text.contains("moderators will look at it"))
            let unknown = try await app.form(.post, "\(path)/comments/\(UUID().uuidString)/report", ["_csrf": readerCSRF], cookie: readerCookie)
            #expect(unknown.status == .notFound && unknown.text.contains("notice-refused"))
            let tooLongReason = try await app.form(
                .post, report, ["_csrf": readerCSRF, "reason": String(repeating: "x", count: 501)], cookie: readerCookie)
            #expect(tooLongReason.status == .unprocessableContent)

            // The same on a recipe, whose comments are the chain's.
            let recipe = try #require(try await app.shareRecipe(reader, title: "Rundown", [("Coconut milk", nil, nil)])["id"].string)
            let recipePath = "/shop/recipes/\(recipe)"
            let onRecipe = try await app.form(.post, "\(recipePath)/comments", ["_csrf": csrf, "bodyMarkdown": "Made it **twice**"], cookie: cookie)
            #expect(onRecipe.status == .seeOther && onRecipe.headers[.location]?.hasPrefix("\(recipePath)?notice=commented#comment-") == true)
            let recipePage = try await app.form(.get, recipePath, cookie: cookie).text
            #expect(recipePage.contains("Made it <strong>twice</strong>") && recipePage.contains("Comments (1)"))
            let reportRecipe = try await app.form(.post, "\(recipePath)/report", ["_csrf": csrf, "reason": "Copied"], cookie: cookie)
            #expect(reportRecipe.headers[.location] == "\(recipePath)?notice=reported")
        }
    }

    @Test("a customer puts a recipe in the cart at twice its servings and is told what could not go in; typo'd servings change nothing")
    func recipeToCart() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let rice = try await app.addProduct(store: store, name: "Rice", onHand: 50)
            let peas = try await app.addProduct(store: store, name: "Red peas", onHand: 50)
            let pepper = try await app.addProduct(store: store, name: "Scotch bonnet", onHand: 2)
            let saltfish = try await app.addProduct(store: try await app.createStore(), name: "Saltfish")
            let cook = try await app.registerCustomer()
            let recipe = try #require(
                try await app.shareRecipe(
                    cook, title: "Rice and peas", servings: 4,
                    [
                        ("2 cups rice", rice, 3), ("Red peas", peas, 1), ("Scotch bonnet", pepper, 2), ("Saltfish", saltfish, 1),
                        ("A pinch of salt", nil, nil),
                    ]
                )["id"].string)
            let path = "/shop/recipes/\(recipe)"

            // A visitor reads it, and is asked to sign in to fill a cart, and brought back.
            let read = try await app.form(.get, path, cookie: Self.visitor(store))
            #expect(read.status == .ok && read.text.contains("id=\"recipe-cart-form\"") && read.text.contains("Rice × 3"))
            #expect(read.text.contains("not sold at Half Way Tree"), "the store says what it does not sell")
            let visitorAdd = try await app.form(.post, "\(path)/cart", ["servings": "8"], cookie: Self.visitor(store))
            #expect(visitorAdd.status == .seeOther && visitorAdd.headers[.location] == "/?next=\(path)")

            let shopper = try await app.registerCustomer()
            try await app.chooseStore(shopper, store)
            let cookie = Self.cookie(shopper)
            let csrf = try await app.csrfToken(on: path, cookie: cookie)
            for typo in ["1e9", "0", "abc", "-1", "101", "4.5", "99999999999999999999"] {
                let refused = try await app.form(.post, "\(path)/cart", ["_csrf": csrf, "servings": typo], cookie: cookie)
                #expect(refused.status == .unprocessableContent, "\(typo): \(refused.status)")
                #expect(refused.text.contains("notice-refused") && refused.text.contains("Servings must be a whole number from 1 to 100."), "\(typo)")
            }
            #expect(try await app.request(.get, "/v1/cart", token: shopper.token).json["items"].array.isEmpty, "nothing went in")

            let added = try await app.form(.post, "\(path)/cart", ["_csrf": csrf, "servings": "8"], cookie: cookie)
            #expect(added.status == .ok, "\(added.status)")
            #expect(added.text.contains("Added to your cart for 8 servings: Rice × 6, Red peas × 2."), "\(added.text)")
            #expect(
                added.text.contains(
                    "Not added: Scotch bonnet (only 2 left), Saltfish (not sold at this store), A pinch of salt (not in the catalogue)."))
            #expect(added.text.contains("id=\"cart-count\" class=\"count\">(8)"), "the cart's count moved")
            func cart() async throws -> [String: Int] {
                let items = try await app.request(.get, "/v1/cart", token: shopper.token).json["items"].array
                return Dictionary(uniqueKeysWithValues: items.map { ($0["productId"].string ?? "", $0["quantity"].int ?? 0) })
            }
            #expect(try await cart() == [rice: 6, peas: 2])

            // Leaving out what they have: the peas stay as they were.
            let skipped = try await app.form(.post, "\(path)/cart", ["_csrf": csrf, "servings": "4", "skip-1": "on", "skip-2": "on"], cookie: cookie)
            #expect(skipped.status == .ok && skipped.text.contains("Added to your cart for 4 servings: Rice × 3."))
            #expect(try await cart() == [rice: 9, peas: 2])
            let noSuch = try await app.form(.post, "\(path)/cart", ["_csrf": csrf, "skip-42": "on"], cookie: cookie)
            #expect(noSuch.status == .unprocessableContent && noSuch.text.contains("The recipe has no ingredient 42."))
            #expect(try await cart() == [rice: 9, peas: 2])

            // Another recipe's id that is no recipe is not found.
            let missing = try await app.form(.post, "/shop/recipes/\(UUID().uuidString)/cart", ["_csrf": csrf, "servings": "2"], cookie: cookie)
            #expect(missing.status == .notFound && missing.text.contains("id=\"not-found\""))
        }
    }

    @Test("find these in store lists the recipe's products in aisle walk order; recipes are searched; a hidden recipe or comment is gone")
    func locateSearchAndHidden() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let late = try await app.createAisle(store: store, code: "9", name: "Frozen", walkOrder: 9)
            let early = try await app.createAisle(store: store, code: "1", name: "Produce", walkOrder: 1)
            let ice = try await app.createProduct(store: store, name: "Ice", aisle: late)
            let lime = try await app.createProduct(store: store, name: "Lime", aisle: early, bay: 2, shelf: "C")
            let sugar = try await app.addProduct(store: store, name: "Sugar")
            let rum = try await app.addProduct(store: try await app.createStore(), name: "Rum")
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, store)
            let recipe = try #require(
                try await app.shareRecipe(
                    cook, title: "<script>alert(1)</script> Daiquiri", body: "Shake *hard*.",
                    [("Ice", ice, 1), ("Sugar", sugar, 1), ("Rum", rum, 1), ("Lime", lime, 2), ("Water", nil, nil)])["id"].string)
            let path = "/shop/recipes/\(recipe)"
            let cookie = Self.visitor(store)

            let page = try await app.form(.get, path, cookie: cookie)
            #expect(page.status == .ok)
            let walk = [lime, ice, sugar].map { Self.position(of: "id=\"located-\($0)\"", in: page.text) }
            #expect(walk.allSatisfy { $0 != nil } && walk == walk.sorted { ($0 ?? 0) < ($1 ?? 0) }, "aisle walk order, unplaced last")
            #expect(!page.text.contains("located-\(rum)"), "what the store does not sell is not in its aisles")
            #expect(page.text.contains("Aisle 1 (Produce), bay 2, shelf C") && page.text.contains(LocationRecord.notLocatedSentence))
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt; Daiquiri") && !page.text.contains("<script>alert"))
            #expect(page.text.contains("Shake <em>hard</em>."))
            let storeless = try await app.form(.get, path)
            #expect(storeless.status == .ok && storeless.text.contains("Choose a store") && !storeless.text.contains("recipe-locate-list"))

            let found = try await app.form(.get, "/shop/recipes?q=daiquiris", cookie: cookie)
            #expect(found.status == .ok && found.text.contains("href=\"\(path)\"") && found.text.contains("3 of 5 ingredients at"))
            #expect(try await app.form(.get, "/shop/recipes?q=lasagne", cookie: cookie).text.contains("id=\"no-recipes\""))
            let long = try await app.form(.get, "/shop/recipes?q=\(String(repeating: "a", count: 101))", cookie: cookie)
            #expect(long.status == .unprocessableContent && long.text.contains("notice-refused"))

            // A comment the manager hides is gone for readers; then the recipe itself.
            let reader = try await app.registerCustomer()
            let said = try await app.request(.post, "/v1/recipes/\(recipe)/comments", json: ["bodyMarkdown": "Buy my stuff"], token: reader.token)
            let comment = try #require(said.json["id"].string)
            #expect(try await app.form(.get, path, cookie: cookie).text.contains("comment-\(comment)"))
            #expect(try await app.request(.post, "/v1/moderation/comment/\(comment)/hide", token: manager.token).status == .ok)
            #expect(!(try await app.form(.get, path, cookie: cookie).text.contains("comment-\(comment)")))
            let author = try await app.form(.get, path, cookie: Self.cookie(reader)).text
            #expect(author.contains("comment-\(comment)") && author.contains("Hidden by a moderator"), "its author still sees it, marked")

            #expect(try await app.request(.post, "/v1/moderation/recipe/\(recipe)/hide", token: manager.token).status == .ok)
            for id in [recipe, "not-an-id"] {
                let hidden = try await app.form(.get, "/shop/recipes/\(id)", cookie: cookie)
                #expect(hidden.status == .notFound && hidden.text.contains("id=\"not-found\""), "\(id): \(hidden.status)")
            }
            #expect(!(try await app.form(.get, "/shop/recipes", cookie: cookie).text.contains(path)))
            let own = try await app.form(.get, path, cookie: Self.cookie(cook))
            #expect(own.status == .ok && own.text.contains("id=\"recipe-hidden\""), "its author sees it, told it is hidden")
            let csrf = try await app.csrfToken(on: "/shop/recipes", cookie: Self.cookie(reader))
            let onHidden = try await app.form(.post, "\(path)/comments", ["_csrf": csrf, "bodyMarkdown": "Hello?"], cookie: Self.cookie(reader))
            #expect(onHidden.status == .notFound)
        }
    }
}

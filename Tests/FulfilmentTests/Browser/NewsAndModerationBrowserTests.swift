import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite(
    "The news editor and moderation in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct NewsAndModerationBrowserTests {
    @Test(
        "a manager writes news with a script in it, previews it rendered and sanitised, publishes it, and readers get the same HTML",
        .timeLimit(.minutes(3)))
    func newsEditor() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store, name: "Morgan Manager")
            try await withBrowser { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.click("a[href='/console/news']")
                try await browser.waitFor("#news-editor")
                try await browser.type("Sorrel is in", into: "#news-editor input[name=title]")
                try await browser.type(
                    "**Fresh sorrel** for the season. <script>document.title='owned'</script> [Recipe](javascript:alert(1))",
                    into: "#news-editor textarea[name=bodyMarkdown]")
                try await browser.click("#news-preview-button")
                try await browser.waitFor("#news-preview")
                #expect(try await browser.text("#news-preview strong") == "Fresh sorrel")
                #expect(
                    try await browser.script("return document.querySelectorAll('#news-preview script, #news-preview a[href^=javascript]').length")
                        as? Int == 0)
                #expect(try await browser.text("#news-preview").contains("<script>"), "the writer's tag shown as text")
                #expect(try await browser.script("return document.title") as? String != "owned")
                // The form keeps what was written across the preview.
                #expect(try await browser.attribute("#news-editor input[name=title]", "value") == "Sorrel is in")
                try await browser.snapshot("news-preview")

                try await browser.click("#news-editor input[name=published]")
                try await browser.click("#news-save")
                try await browser.waitFor("the save") { try await browser.text("#news-note") == "“Sorrel is in” is published." }
                #expect(try await browser.text("#news-items").contains("published"))
            }
            let published = try await app.request(.get, "/v1/stores/\(store)/news")
            let item = try #require(published.json["items"].array.first)
            #expect(item["title"].string == "Sorrel is in")
            let html = item["bodyHtml"].string ?? ""
            #expect(html.contains("<strong>Fresh sorrel</strong>") && !html.contains("<script") && !html.contains("javascript:"), "\(html)")
        }
    }

    @Test(
        "a manager sees a report of their store's recipe, hides it (gone for readers), blocks its author and unblocks them", .timeLimit(.minutes(3)))
    func moderation() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let cook = try await app.registerCustomer()
            try await app.chooseStore(cook, store)
            let id = try #require(try await app.shareRecipe(cook, title: "Buy followers here", [("Salt", nil, nil)])["id"].string)
            let reader = try await app.registerCustomer()
            _ = try await app.request(
                .post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(id), "reason": "spam"], token: reader.token)

            try await withBrowser { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.click("a[href='/console/moderation']")
                try await browser.waitFor("#reports")
                #expect(try await browser.text("#reports").contains("Buy followers here"))

                try await browser.click("#reports form[action='/console/moderation/blocks'] button")
                try await browser.waitFor("the block") { try await browser.text("#moderation-note").contains("can no longer post") }
                let blocked = try await app.request(.post, "/v1/recipes/\(id)/comments", json: ["bodyMarkdown": "hi"], token: cook.token)
                #expect(blocked.errorCode == "posting_blocked")

                try await browser.click("#reports form[action$='/hide'] button")
                try await browser.waitFor("the hiding") { try await browser.text("#moderation-note").contains("hidden") }
                #expect(try await app.request(.get, "/v1/recipes/\(id)").status == .notFound)
                #expect(try await browser.text("main").contains("No open reports."))

                try await browser.click("#block-\(cook.userID) button")
                try await browser.waitFor("the unblock") { try await browser.text("#moderation-note") == "The author may post again." }
            }
            let posted = try await app.request(.post, "/v1/recipes/\(id)/comments", json: ["bodyMarkdown": "hi"], token: cook.token)
            #expect(posted.status == .created, "unblocked, the author posts (the hidden recipe is still theirs to see)")
        }
    }
}

import Foundation
import FulfilmentDomain

/// The store's news in the shop: the list, shown by `GET /shop/news` (`listNews`, `?cursor=` for
/// the next page), and one article, shown by `GET /shop/news/{newsId}` (`getNews` with
/// `listNewsComments`, `?cursor=` for more comments) and by its refused comment form
/// (`POST /shop/news/{newsId}/comments`, `createNewsComment`).
enum ShopNewsView {
    /// The item's image as the API serves it (`getNewsImage`) to whoever may read the item; nil
    /// when it has none.
    static func imageURL(_ item: NewsItem) -> String? {
        item.hasImage ? "/v1/stores/\(item.store)/news/\(item.id)/image" : nil
    }

    /// When readers saw it first: its publication (an item is listed only once published).
    static func date(_ item: NewsItem) -> Date { item.publishedAt ?? item.createdAt }

    /// The store's published news, pinned first then newest, each with its title (the link to
    /// the article), its day on the store's clock, its image and a line of its body; `next` is
    /// the cursor of the next page. The image's `alt` is empty: it illustrates the title beside
    /// it, and the news has no description of its own to read out.
    static func list(frame: ShopPageView.Frame, store: StoreRecord, items: [NewsItem], zone: TimeZone?, next: String?) -> ConsolePage {
        let stories = HTML.join(
            items.map { item -> HTML in
                let image: HTML = imageURL(item).map { "<img class=\"story-image\" src=\"\($0)\" alt=\"\" loading=\"lazy\">" } ?? .empty
                let pinned: HTML = item.pinned ? "<span class=\"status status-packaged\">Pinned</span> " : .empty
                let comments: HTML = item.commentCount == 1 ? " · 1 comment" : " · \(item.commentCount) comments"
                return """
                    <li class="story" id="news-\(item.id)">
                    \(image)
                    <h2 class="story-title"><a href="/shop/news/\(item.id)">\(item.title)</a></h2>
                    <p class="hint">\(pinned)\(ShopNewsAndRecipesView.day(date(item), zone: zone))\(comments)</p>
                    <p class="story-summary">\(ShopNewsAndRecipesView.summary(item.bodyMarkdown))</p>
                    </li>
                    """
            })
        let list: HTML =
            items.isEmpty
            ? "<p class=\"hint\" id=\"no-news\">No news from \(store.name) yet.</p>"
            : "<ul class=\"stories\" id=\"news-list\">\(stories)</ul>"
        var more: HTML = .empty
        if let next {
            var components = URLComponents()
            components.path = "/shop/news"
            components.queryItems = [URLQueryItem(name: "cursor", value: next)]
            more = "<p><a class=\"button secondary\" id=\"more-news\" href=\"\(components.string ?? "/shop/news")\">Older news</a></p>"
        }
        return ShopPageView.page(
            "News", frame: frame,
            body: """
                \(ShopNewsAndRecipesView.links(current: "/shop/news"))
                <h1>News from \(store.name)</h1>
                <p class="hint">What's new at the store you collect from. <a href="/shop/stores">Change store</a></p>
                \(list)
                \(more)
                """)
    }

    /// One article: its title, day, image and body (sanitised Markdown only), then its comments
    /// (``ShopNewsAndRecipesView/comments(_:count:next:zone:session:forms:)``).
    static func article(
        frame: ShopPageView.Frame, store: StoreRecord, item: NewsItem, comments: [UserComment], next: String?, zone: TimeZone?,
        forms: ShopNewsAndRecipesView.CommentForms
    ) -> ConsolePage {
        let image: HTML = imageURL(item).map { "<img class=\"article-image\" src=\"\($0)\" alt=\"\">" } ?? .empty
        let pinned: HTML = item.pinned ? " · <span class=\"status status-packaged\">Pinned</span>" : .empty
        return ShopPageView.page(
            item.title, frame: frame,
            body: """
                \(ShopNewsAndRecipesView.links(current: ""))
                <article class="article" id="article">
                <h1>\(item.title)</h1>
                <p class="hint">\(store.name) · \(ShopNewsAndRecipesView.day(date(item), zone: zone))\(pinned)</p>
                \(image)
                <div class="article-body" id="article-body">\(ShopNewsAndRecipesView.body(item.bodyMarkdown))</div>
                </article>
                \(ShopNewsAndRecipesView.comments(comments, count: item.commentCount, next: next, zone: zone, session: frame.session, forms: forms))
                <p><a href="/shop/news">All news</a></p>
                """)
    }
}

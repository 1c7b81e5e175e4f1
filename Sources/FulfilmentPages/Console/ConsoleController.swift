import Foundation
import FulfilmentDomain
import Hummingbird

/// The store console: server-rendered pages for staff, managers and the chain's admins, served
/// by the service itself beside the API (`/console/...`). Routes are in
/// `ConsoleController+*.swift`, one file per room of the console (desk, board, pick lists,
/// stock...); every page passes the one front door of ``PageController``.
package struct ConsoleController: PageController {
    package let services: Services
    package let secureCookies: Bool

    package init(services: Services, secureCookies: Bool) {
        self.services = services
        self.secureCookies = secureCookies
    }

    /// The console's routes, its assets (the shop's too), and a page for any other console
    /// address, behind the pages' one same-origin check.
    package var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: SameOriginMiddleware())
        routes.get("/console/assets/:name") { request, context in
            ConsoleAssets.response(context.parameters.get("name") ?? "", request: request)
        }
        registerDesk(on: routes)
        registerRestrictedLines(on: routes)
        registerDeskSubstitutions(on: routes)
        registerBoard(on: routes)
        registerEvents(on: routes)
        registerPickLists(on: routes)
        registerStock(on: routes)
        registerStores(on: routes)
        registerSales(on: routes)
        registerCoupons(on: routes)
        registerNews(on: routes)
        registerModeration(on: routes)
        // Any other console address: a page saying so, not the API's JSON 404.
        routes.get("/console/**") { request, context in
            let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
            return ConsolePage.message("Not found", "There is no such page in the console.", session: session, status: .notFound)
        }
        return routes
    }
}

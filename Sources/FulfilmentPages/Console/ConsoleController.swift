import Foundation
import FulfilmentDomain
import Hummingbird

/// The store console: server-rendered pages for staff, managers and the chain's admins, served
/// by the service itself beside the API (`/console/...`). Routes are in
/// `ConsoleController+*.swift`, one file per room of the console (desk, board, pick lists,
/// stock...); every page passes the one front door of ``PageController``.
///
/// Routes here, views in `Views/`: a route file reads the form, calls the domain services and
/// hands what they answered to its view (`DeskView`, `BoardView`, `PickListsView`,
/// `PickModeView`, `StockView`, `SalesView`, `CouponsView`, `NewsView`, `ModerationView`,
/// `StoresView`), a pure function of plain values that returns the page's HTML (no services,
/// no request, no database), so a page's markup is found in the view named after it.
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
        // Read the asset files now: an install without them stops at start, not on a first page.
        _ = ConsoleAssets.all
        routes.get("/console/assets/:name") { request, context in
            ConsoleAssets.response(context.parameters.get("name") ?? "", request: request)
        }
        registerDesk(on: routes)
        registerRestrictedLines(on: routes)
        registerDeskSubstitutions(on: routes)
        registerBoard(on: routes)
        registerOrderPage(on: routes)
        registerBagLabels(on: routes)
        registerOrderSearch(on: routes)
        registerReports(on: routes)
        registerPeople(on: routes)
        registerSettings(on: routes)
        registerMail(on: routes)
        registerEvents(on: routes)
        registerPickLists(on: routes)
        registerStock(on: routes)
        registerProducts(on: routes)
        registerCategories(on: routes)
        registerWebhooks(on: routes)
        registerStores(on: routes)
        registerSales(on: routes)
        registerCoupons(on: routes)
        registerNews(on: routes)
        registerModeration(on: routes)
        registerCatalogueImport(on: routes)
        // Any other console address: a page saying so, not the API's JSON 404.
        routes.get("/console/**") { request, context in
            let session = try await ConsoleSession.resolve(request, sessions: accounts.sessions, logger: context.logger)
            return ConsolePage.message("Not found", "There is no such page in the console.", session: session, status: .notFound)
        }
        return routes
    }
}

import Foundation
import FulfilmentDomain
import Hummingbird

/// The front door every role shares: signing in (with a password or an identity provider),
/// signing out, and "My data" (what the service holds about the signed-in person, its export,
/// unlinking a provider, erasing the account). Where a signed-in person lands next depends on
/// their role (`home(for:)`): the console for staff, the shop for customers.
///
/// Routes here, views in `Views/`: the routes are in `AccountController+*.swift`; each reads the
/// form, calls the domain services and hands what they answered to its view (`SignInView` for
/// the sign-in pages, `MyDataView` for "My data"), a pure function of plain values that returns
/// the page's HTML (no services, no request, no database), so a page's markup is found in its view.
package struct AccountController: PageController {
    package let services: Services
    package let secureCookies: Bool

    package init(services: Services, secureCookies: Bool) {
        self.services = services
        self.secureCookies = secureCookies
    }

    /// `/`, `/signin...`, `/signout` and `/account...`, behind the pages' one same-origin check.
    package var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: SameOriginMiddleware())
        registerSignIn(on: routes)
        registerProviderSignIn(on: routes)
        registerAccount(on: routes)
        registerPasswordReset(on: routes)
        registerProfile(on: routes)
        return routes
    }
}

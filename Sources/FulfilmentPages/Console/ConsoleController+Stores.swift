import Foundation
import FulfilmentDomain
import Hummingbird

/// `/console/stores`: where a chain admin lands after signing in (`createStore`, so only
/// admins): the chain's stores with their aisles in walk order. Stores, aisles and the
/// catalogue are changed through the API and `fulfilment store ...`; this page shows the result.
extension ConsoleController {
    func registerStores(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/stores") { request, context in
            try await page(request, context, operation: "createStore") { visit in
                let stores = services.stores
                var list: [(store: StoreRecord, aisles: [AisleRecord])] = []
                for store in try await stores.all(logger: visit.logger) {
                    list.append((store, try await stores.aisles(of: store.id, logger: visit.logger)))
                }
                return StoresView.page(session: visit.session, stores: list).response()
            }
        }
    }
}

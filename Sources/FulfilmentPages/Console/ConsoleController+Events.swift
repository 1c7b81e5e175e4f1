import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import NIOCore

/// `/console/events`: the caller's store's live events for the board and the desk, the same
/// stream as `streamStoreEvents` (and its access rule) on the console's cookie session, which
/// a browser's `EventSource` sends by itself (it cannot send a bearer token).
extension ConsoleController {
    func registerEvents(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/events") { request, context in
            try await page(request, context, operation: "streamStoreEvents", store: { $0.storeID }) { visit in
                guard let store = visit.identity.storeID else { throw AccessError.forbidden }
                let start = try await services.events.storeStart(
                    store, lastEventID: request.headers[HTTPField.Name("Last-Event-ID")!], logger: visit.logger)
                let lease = try await services.events.open(for: visit.identity, takingOver: true, logger: visit.logger)
                let frames = services.events.body(.store(store), after: start, lease: lease, logger: visit.logger)
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                    body: ResponseBody(asyncSequence: frames.map { ByteBuffer(bytes: $0) }))
            }
        }
    }
}

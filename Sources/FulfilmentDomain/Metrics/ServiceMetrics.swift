import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import Prometheus

/// What the service counts, in the Prometheus text format at `GET /metrics`: HTTP requests by
/// route and status with their latency (Hummingbird's `MetricsMiddleware`), checkouts,
/// collection scans by outcome, and whether the database answers.
///
/// swift-metrics is bootstrapped once per process, so every application built in it (the tests
/// build many) reports into this one registry.
package enum ServiceMetrics {
    package static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Makes sure the registry is the metrics backend before anything records.
    package static func bootstrap() { _ = registry }

    package static func checkoutPlaced() {
        bootstrap()
        Counter(label: "fulfilment_checkouts_total").increment()
    }

    /// One scan at the desk and what came of it: `collected`, or the refusal's error code.
    package static func collection(outcome: String, preview: Bool) {
        bootstrap()
        Counter(label: "fulfilment_collections_total", dimensions: [("outcome", outcome), ("preview", String(preview))]).increment()
    }

    /// How many live event streams this instance is serving now.
    package static func eventStreams(_ count: Int) {
        bootstrap()
        Gauge(label: "fulfilment_event_streams").record(count)
    }

    /// The embedded cluster started again after it exited under the service (``EmbeddedSupervisor``).
    /// Recorded with 0 when supervision begins, so a scrape shows none rather than nothing.
    package static func embeddedPostgresRestarted(_ count: Int = 1) {
        bootstrap()
        Counter(label: "fulfilment_embedded_postgres_restarts_total").increment(by: count)
    }

    /// How long a customer who said "I'm here" waited for the hand-over, per store (issue 27):
    /// `fulfilment_arrival_wait_seconds`, a histogram from 15 seconds to an hour, so PromQL's
    /// `histogram_quantile` gives the p50 and p90 per store (the README has the queries).
    package static func arrivalWait(store: StoreID, seconds: Double) {
        registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "fulfilment_arrival_wait", unitName: "seconds",
                helpText: "From the customer's \"I'm here\" to the hand-over, per store."),
            labels: [("store", store.description)], buckets: arrivalWaitBuckets
        ).record(max(seconds, 0))
    }

    /// 15 s to an hour: a kerbside wait is minutes, and a long one is what a store wants to see.
    package static let arrivalWaitBuckets: [Double] = [15, 30, 60, 120, 180, 300, 420, 600, 900, 1_200, 1_800, 3_600]

    /// The service moved its work to another server of its connection string (issue 29).
    package static func databaseFailoverFollowed() {
        bootstrap()
        Counter(label: "fulfilment_database_failovers_total").increment()
    }

    /// A request that failed on a server going away was run again once it had a primary.
    package static func requestRetriedAfterFailover() {
        bootstrap()
        Counter(label: "fulfilment_database_retried_requests_total").increment()
    }

    package static func database(reachable: Bool) {
        bootstrap()
        Gauge(label: "fulfilment_database_up").record(reachable ? 1 : 0)
    }
}

/// `GET /metrics`: the registry as Prometheus text, for whoever may read how busy the shop is.
///
/// With `FULFILMENT_METRICS_TOKEN` set, only for `Authorization: Bearer <that token>`. Without
/// one, open only on a loopback listener, which nobody off this machine reaches; on any other
/// address it answers 404 as if it were not there, and the start-up log says how to turn it on.
package struct MetricsEndpoint: Sendable {
    package enum Access: Sendable, Equatable {
        case open
        case token(String)
        case off
    }

    package let access: Access

    package init(token: String?, host: String) {
        access = token.map { .token($0) } ?? (IPAddress.isLoopback(host: host) ? .open : .off)
    }

    package func response(for request: Request) throws -> Response {
        switch access {
        case .off:
            throw HTTPError(.notFound)  // as any path the service does not have
        case .token(let token):
            guard let presented = RequestScopeMiddleware<AppRequestContext>.bearerToken(request.headers),
                ConstantTime.equal(presented, token)
            else {
                throw APIError(.unauthorized, "unauthorized", "The metrics need the metrics token (FULFILMENT_METRICS_TOKEN).")
            }
        case .open:
            break
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: ServiceMetrics.registry.emitToBuffer())))
    }
}

import Logging
import Synchronization

/// Which of the servers the connection string names this instance sends its work to (issue 29).
///
/// The servers are a primary and its standbys (pg_auto_failover's multi-host string). Which one
/// is the primary is libpq's to find, with the string's own `target_session_attrs`: the
/// `DatabaseProbe` connects with it twice a second and, on each new connection, tells the router
/// which server libpq chose (`PQhost`, `PQport`). Each server has its own PostgresNIO pool
/// (`Database`), so following a failover is a switch of pools, never a restart. With one server
/// there is nothing to choose and the router never changes.
package final class PrimaryRouter: Sendable {
    package let endpoints: [ConnectionInfo.Endpoint]
    private let state: Mutex<(index: Int, changes: Int)>

    package init(endpoints: [ConnectionInfo.Endpoint]) {
        self.endpoints = endpoints
        state = Mutex((0, 0))
    }

    /// The index (in `endpoints`) of the server in use.
    package var current: Int { state.withLock { $0.index } }
    package var currentEndpoint: ConnectionInfo.Endpoint { endpoints[current] }
    /// How many times the server in use has changed since start (failovers and switchovers followed).
    package var changes: Int { state.withLock { $0.changes } }

    /// The pool index in use and the change count it belongs to, read together.
    package var snapshot: (index: Int, changes: Int) { state.withLock { $0 } }

    /// Returns once the server in use is no longer the one of `changes` (or when cancelled).
    /// A poll a few times a second: only work that may be stuck on a dead server waits here.
    package func untilChanged(from changes: Int) async {
        while !Task.isCancelled && self.changes == changes {
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Records that libpq found `endpoint` to be the server to use. When that is a change it is
    /// logged in one line and counted (`fulfilment_database_failovers_total`); true then.
    @discardableResult
    package func use(_ endpoint: ConnectionInfo.Endpoint, logger: Logger) -> Bool {
        guard let index = endpoints.firstIndex(of: endpoint) else { return false }
        let previous: Int? = state.withLock { state in
            guard state.index != index else { return nil }
            defer { state = (index, state.changes + 1) }
            return state.index
        }
        guard let previous else { return false }
        logger.warning(
            "database primary changed: now \(endpoint), was \(endpoints[previous])",
            metadata: ["primary": "\(endpoint)", "previous": "\(endpoints[previous])"])
        ServiceMetrics.databaseFailoverFollowed()
        return true
    }
}

import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// After a crash under load (the service's or its database's): no order is half-written (each
/// has its line, history entry and token), stock on hand is untouched, and reserved stock is
/// exactly what the open orders hold.
func expectOrdersWholeAndStockAddingUp(product: String, onHand: Int, on database: ConnectionInfo) async throws {
    let broken = try await sql(
        """
        SELECT count(*) FROM orders o
        WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)
           OR NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id)
           OR NOT EXISTS (SELECT 1 FROM pickup_tokens t WHERE t.order_id = o.id)
        """, on: database)
    #expect(broken[0][0] == "0", "half-written orders")
    let stock = try await sql(
        """
        SELECT s.on_hand, s.reserved, (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE product_id = s.product_id)
        FROM stock s WHERE s.product_id = $1
        """, [product], on: database)
    #expect(stock[0][0] == String(onHand))
    #expect(stock[0][1] == stock[0][2], "reserved is not what the open orders hold")
}

/// Stops a `fulfilment serve` process on an embedded cluster: SIGTERM (the service stops the
/// cluster it started), SIGKILL after a minute, then stops any server still left in the folder.
func stopService(_ pid: pid_t, _ embedded: EmbeddedPostgres) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<600 where waitpid(pid, &status, WNOHANG) == 0 { usleep(100_000) }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    if embedded.isRunning { embedded.stop() }
}

/// Why on hand changed, as a manager says it. Sales and reservations are not here: they are
/// the orders themselves.
package enum StockReason: String, Sendable, CaseIterable {
    case received, damaged, expired, returned, count, correction, `import`
}

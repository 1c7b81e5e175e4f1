import Foundation

extension Cart {
    /// What moving the cart to another store changed, line by line, as sentences a customer
    /// reads ("Ackee 540g: JMD 10.00 → JMD 12.00", "Water 1L: not sold at this store"): every
    /// price that moved and every line the new store cannot fill. Empty when nothing changed.
    /// The cart's lines are re-priced on every read, so without this a customer who changes
    /// store sees new prices with no word of which.
    package func changes(since before: Cart) -> [String] {
        var said: [String] = []
        if before.currency != currency, !lines.isEmpty {
            said.append("Prices are now in \(currency).")
        }
        for line in lines {
            guard let old = before.lines.first(where: { $0.productID == line.productID }) else { continue }
            if line.discontinued {
                said.append("\(line.name): no longer sold")
            } else if line.available == 0 {
                said.append("\(line.name): not in stock at this store")
            } else if line.available < line.quantity {
                said.append("\(line.name): only \(line.available) at this store")
            }
            if old.unitPrice != line.unitPrice || before.currency != currency {
                said.append("\(line.name): \(MoneyText.format(old.unitPrice, before.currency)) → \(MoneyText.format(line.unitPrice, currency))")
            }
        }
        return said
    }
}

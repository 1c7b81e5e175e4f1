import HTTPTypes
import PostgresNIO

/// What can go wrong when the chain's admin opens stores and lays out their aisles, and how
/// each looks over HTTP (and on the command line, as its message).
public enum ChainError: Error, APIErrorConvertible, Equatable {
    case storeNotFound
    case aisleNotFound
    case storeCodeTaken(String)
    case aisleCodeTaken(String)
    case walkOrderTaken(Int)
    /// Products are still placed in the aisle: deleting it would leave them nowhere.
    case aisleInUse(products: Int)
    case invalidField(String, String)
    /// A store's manager changing what the chain keeps (its code or name).
    case chainKeeps(String)

    public var apiError: APIError {
        switch self {
        case .storeNotFound: .notFound("The store")
        case .aisleNotFound: .notFound("The aisle")
        case .storeCodeTaken(let code):
            APIError(.conflict, "store_code_taken", "Another store already has the code '\(code)'.", details: ["field": "code"])
        case .aisleCodeTaken(let code):
            APIError(.conflict, "aisle_code_taken", "This store already has an aisle '\(code)'.", details: ["field": "code"])
        case .walkOrderTaken(let order):
            APIError(
                .conflict, "walk_order_taken", "Another aisle of this store is walked at \(order); walk orders are unique in a store.",
                details: ["field": "walkOrder"])
        case .aisleInUse(let products):
            APIError(
                .conflict, "aisle_in_use",
                "\(products) product(s) are placed in this aisle; move them to another aisle first, then remove it.",
                details: ["products": .int(products)])
        case .invalidField(let field, let message): .invalidField(field, message)
        case .chainKeeps(let field):
            APIError(
                .forbidden, "forbidden", "The chain's admin names its stores: a manager changes the store's other details, not its \(field).",
                details: ["field": .string(field)])
        }
    }
}

extension ChainError: DatabaseErrorMapping {
    /// The database's unique codes and walk orders, and its foreign keys, as the chain's errors.
    /// The database names the constraint, not the value: a taken code or walk order comes
    /// without it here, and `Stores` names the one the request asked for (``naming(code:walkOrder:)``).
    public init?(databaseError error: any Error) {
        switch (error.sqlState, error.constraintName) {
        case (SQLState.uniqueViolation, "stores_code_key"?): self = .storeCodeTaken("")
        case (SQLState.uniqueViolation, "aisles_store_id_walk_order_key"?): self = .walkOrderTaken(0)
        case (SQLState.uniqueViolation, "aisles_store_id_code_key"?): self = .aisleCodeTaken("")
        case (SQLState.foreignKeyViolation, "aisles_store_id_fkey"?): self = .storeNotFound
        // Deleting an aisle a product is placed in (the removal's lock keeps this from happening).
        case (SQLState.foreignKeyViolation, "stock_store_id_aisle_id_fkey"?): self = .aisleInUse(products: 1)
        default: return nil
        }
    }

    /// This error with the code or walk order the request asked for, where it names one.
    package func naming(code: String?, walkOrder: Int?) -> ChainError {
        switch self {
        case .storeCodeTaken: .storeCodeTaken(code ?? "")
        case .aisleCodeTaken: .aisleCodeTaken(code ?? "")
        case .walkOrderTaken: .walkOrderTaken(walkOrder ?? 0)
        default: self
        }
    }
}

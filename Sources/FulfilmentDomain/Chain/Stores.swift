import Foundation
import Logging
import PostgresNIO

/// The chain admin's work on stores and their aisles, shared by the API (`API+Chain.swift`) and
/// the command line (`fulfilment store ...`): the rules for each field, one transaction per
/// change, and the database's unique constraints turned into clear 409s (`ChainError`'s one
/// mapping, with the code or walk order the request asked for).
public struct Stores: Sendable {
    public let database: Database

    public init(database: Database) { self.database = database }

    /// The fields of a new aisle, or of a change to one (nil: unchanged).
    public struct AisleFields: Sendable {
        public var code: String?
        public var name: String?
        public var walkOrder: Int?
        public var zone: String?

        public init(code: String? = nil, name: String? = nil, walkOrder: Int? = nil, zone: String? = nil) {
            (self.code, self.name, self.walkOrder, self.zone) = (code, name, walkOrder, zone)
        }
    }

    /// Opens a store; `location` is where it is, if the chain says.
    public func create(
        code: String, name: String, address: String, currency: String, location: GeoPoint? = nil, logger: Logger
    ) async throws -> StoreRecord {
        let code = try StoreRules.code(code)
        let name = try StoreRules.text(name, field: "name", limit: 200)
        let address = try StoreRules.address(address)
        let currency = try StoreRules.currency(currency)
        let location = try location.map(StoreRules.location)
        return try await mappingDatabaseErrors(code: code) {
            try await database.transaction(logger: logger) { connection in
                try await StoreQueries.insertStore(
                    code: code, name: name, address: address, currency: currency, location: location, on: connection, logger: logger)
            }
        }
    }

    /// Changes a store's code, name, address, telephone, location or new-arrival window in days
    /// (nil: unchanged). Its currency stays: its stock and orders are priced in it.
    public func update(
        _ id: StoreID, code: String?, name: String?, address: String?, phone: String? = nil, location: GeoPoint? = nil,
        newArrivalDays: Int? = nil, reminderHours: Int? = nil, logoURL: String? = nil, taxNumber: String? = nil, logger: Logger
    ) async throws -> StoreRecord {
        let code = try code.map(StoreRules.code)
        let name = try name.map { try StoreRules.text($0, field: "name", limit: 200) }
        let address = try address.map(StoreRules.address)
        let phone = try phone.map(StoreRules.phone)
        let location = try location.map(StoreRules.location)
        let newArrivalDays = try newArrivalDays.map(StoreRules.newArrivalDays)
        let reminderHours = try reminderHours.map(StoreRules.reminderHours)
        let logoURL = try logoURL.map(StoreRules.logoURL)
        let taxNumber = try taxNumber.map(StoreRules.taxNumber)
        return try await mappingDatabaseErrors(code: code) {
            try await database.transaction(logger: logger) { connection in
                guard
                    let store = try await StoreQueries.updateStore(
                        id: id, code: code, name: name, address: address, phone: phone, location: location, newArrivalDays: newArrivalDays,
                        reminderHours: reminderHours, logoURL: logoURL, taxNumber: taxNumber, on: connection, logger: logger)
                else { throw ChainError.storeNotFound }
                return store
            }
        }
    }

    /// A store's manager keeps its details (address, telephone, location, windows, logo) as the
    /// access table lets them for their own store; its code and name are the chain's, which
    /// names its stores (issue 46): a manager changing either is refused, nothing written.
    package static func checkChange(code: String?, name: String?, by role: Role) throws(ChainError) {
        guard role != .admin, code != nil || name != nil else { return }
        throw .chainKeeps(code != nil ? "code" : "name")
    }

    public func addAisle(to store: StoreID, _ fields: AisleFields, logger: Logger) async throws -> AisleRecord {
        guard let code = fields.code else { throw ChainError.invalidField("code", "An aisle needs a code.") }
        guard let name = fields.name else { throw ChainError.invalidField("name", "An aisle needs a name.") }
        guard let walkOrder = fields.walkOrder else { throw ChainError.invalidField("walkOrder", "An aisle needs a walk order.") }
        let checked = try StoreRules.aisle(AisleFields(code: code, name: name, walkOrder: walkOrder, zone: fields.zone ?? "ambient"))
        return try await mappingDatabaseErrors(code: checked.code, walkOrder: checked.walkOrder) {
            try await database.transaction(logger: logger) { connection in
                try await StoreQueries.insertAisle(
                    store: store, code: checked.code!, name: checked.name!, walkOrder: checked.walkOrder!, zone: checked.zone!,
                    on: connection, logger: logger)
            }
        }
    }

    public func updateAisle(_ id: AisleID, of store: StoreID, _ fields: AisleFields, logger: Logger) async throws -> AisleRecord {
        let checked = try StoreRules.aisle(fields)
        return try await mappingDatabaseErrors(code: checked.code, walkOrder: checked.walkOrder) {
            try await database.transaction(logger: logger) { connection in
                guard
                    let aisle = try await StoreQueries.updateAisle(
                        id, store: store, code: checked.code, name: checked.name, walkOrder: checked.walkOrder, zone: checked.zone,
                        on: connection, logger: logger)
                else { throw ChainError.aisleNotFound }
                return aisle
            }
        }
    }

    /// Removes an aisle no product is placed in; 409 `aisle_in_use` (with how many) otherwise.
    public func removeAisle(_ id: AisleID, of store: StoreID, logger: Logger) async throws {
        try await mappingDatabaseErrors {
            try await database.transaction(logger: logger) { connection in
                guard let placed = try await StoreQueries.lockAisleForRemoval(id, store: store, on: connection, logger: logger) else {
                    throw ChainError.aisleNotFound
                }
                guard placed == 0 else { throw ChainError.aisleInUse(products: placed) }
                try await StoreQueries.deleteAisle(id, store: store, on: connection, logger: logger)
            }
        }
    }

    /// Every store, by name.
    public func all(logger: Logger) async throws -> [StoreRecord] {
        try await StoreQueries.all(on: database.client, logger: logger)
    }

    /// A store by its code or id, or nil.
    public func store(codeOrID: String, logger: Logger) async throws -> StoreRecord? {
        try await database.transaction(logger: logger) { connection in
            try await StoreQueries.store(codeOrID: codeOrID, on: connection, logger: logger)
        }
    }

    public func aisles(of store: StoreID, logger: Logger) async throws -> [AisleRecord] {
        try await StoreQueries.aisles(store: store, on: database.client, logger: logger)
    }

    /// `ChainError`'s mapping of the database's refusals, naming the code or walk order the
    /// request asked for.
    private func mappingDatabaseErrors<T>(
        code: String? = nil, walkOrder: Int? = nil, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await ChainError.mappingDatabaseErrors(body)
        } catch let error as ChainError {
            throw error.naming(code: code, walkOrder: walkOrder)
        }
    }
}

/// What a store's and an aisle's fields must be, checked before any SQL (the database checks
/// the same again).
package enum StoreRules {
    package static func code(_ text: String) throws(ChainError) -> String {
        guard (2...20).contains(text.utf8.count),
            text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0) })
        else { throw .invalidField("code", "A store code is 2 to 20 capital letters, digits or hyphens (QC-KGN).") }
        return text
    }

    package static func text(_ text: String, field: String, limit: Int) throws(ChainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= limit, !trimmed.unicodeScalars.contains("\0") else {
            throw .invalidField(field, "The \(field) must be 1 to \(limit) characters, not only spaces.")
        }
        return trimmed
    }

    package static func address(_ text: String) throws(ChainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 500, !trimmed.unicodeScalars.contains("\0") else {
            throw .invalidField("address", "The address is at most 500 characters.")
        }
        return trimmed
    }

    /// A tax registration number as the authority issues it ("GB 123 4567 89", "000-123-456"):
    /// at most 40 letters, digits, spaces and `- . /`, counted as sent; empty removes it.
    package static func taxNumber(_ text: String) throws(ChainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = Set("0123456789 -./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        guard text.unicodeScalars.count <= 40, text.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidField("taxNumber", "A tax registration number is at most 40 letters, digits, spaces and - . / characters.")
        }
        return trimmed
    }

    /// A telephone number as people dial it: at most 40 of digits, spaces and `+ ( ) - .`; empty
    /// removes it.
    package static func phone(_ text: String) throws(ChainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = Set("0123456789 +()-.")
        guard trimmed.count <= 40, trimmed.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidField("phone", "A telephone number is at most 40 digits, spaces and + ( ) - . characters.")
        }
        return trimmed
    }

    /// How long a product counts as new at the store (`GET /v1/products?new=true`): 1 to 365 days.
    /// Hours before an uncollected order's expiry its reminder goes: 0 (never) to two weeks.
    package static func reminderHours(_ hours: Int) throws(ChainError) -> Int {
        guard (0...336).contains(hours) else { throw .invalidField("reminderHours", "The reminder is 0 (none) to 336 hours before expiry.") }
        return hours
    }

    /// A logo for the store's messages: an https address of an image, or "" for none.
    package static func logoURL(_ text: String) throws(ChainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard
            trimmed.isEmpty
                || (trimmed.hasPrefix("https://") && trimmed.count <= 2000 && URL(string: trimmed)?.host != nil
                    && !trimmed.contains(where: { $0.isWhitespace || "\"<>".contains($0) }))
        else { throw .invalidField("logoUrl", "The logo is an https:// address of an image (or empty for none).") }
        return trimmed
    }

    package static func newArrivalDays(_ days: Int) throws(ChainError) -> Int {
        guard (1...365).contains(days) else {
            throw .invalidField("newArrivalDays", "The new-arrival window is 1 to 365 days.")
        }
        return days
    }

    package static func currency(_ text: String) throws(ChainError) -> String {
        guard text.utf8.count == 3, text.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw .invalidField("currency", "The currency is a three-letter ISO 4217 code in capitals (JMD).")
        }
        return text
    }

    package static func location(_ point: GeoPoint) throws(ChainError) -> GeoPoint {
        guard point.isOnEarth else {
            throw .invalidField("location", "A location is lat -90 to 90 and lng -180 to 180, in degrees.")
        }
        return point
    }

    package static let zones = ["ambient", "chilled", "frozen"]

    package static func aisle(_ fields: Stores.AisleFields) throws(ChainError) -> Stores.AisleFields {
        var checked = Stores.AisleFields()
        if let code = fields.code { checked.code = try text(code, field: "code", limit: 20) }
        if let name = fields.name { checked.name = try text(name, field: "name", limit: 100) }
        if let walkOrder = fields.walkOrder {
            guard (0...10_000).contains(walkOrder) else { throw .invalidField("walkOrder", "The walk order is 0 to 10000.") }
            checked.walkOrder = walkOrder
        }
        if let zone = fields.zone {
            guard zones.contains(zone) else { throw .invalidField("zone", "The zone is ambient, chilled or frozen.") }
            checked.zone = zone
        }
        return checked
    }
}

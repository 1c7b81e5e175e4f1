/// A store as the catalogue sees it.
public struct StoreRecord: Sendable, Equatable {
    public var id: StoreID
    public var code: String
    public var name: String
    public var address: String
    public var currency: String
    /// Where it is, when the chain said (best price measures distances from it).
    public var location: GeoPoint?
    /// How many days a product counts as new after it joins the store's range (`new=true`).
    public var newArrivalDays: Int = 14
    /// How many hours before an uncollected order expires its customer is reminded; 0: never (issue 44).
    public var reminderHours: Int = 24
    /// An https address of the store's logo, heading its messages; nil: its name instead.
    public var logoURL: String? = nil
    /// Its telephone number as people dial it; empty when not given (the store finder shows it).
    public var phone: String = ""
    /// Its tax jurisdiction (`GB`, `JM`), nil when it shows no tax, and the seller's registration
    /// number its tax receipts print, nil when it has none (issue 48).
    public var taxJurisdiction: String? = nil
    public var taxNumber: String? = nil
}

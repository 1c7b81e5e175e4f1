import PickList

public enum PickListTag {}
/// A pick list's id (typed, so it can't be passed where an order or store id is expected).
public typealias PickListID = ID<PickListTag>

extension ID where Tag == PickListTag {
    /// The pick list a path names: text that is not an id is the same 404 as no such list.
    package static func parse(_ text: String) throws(PickListError) -> PickListID {
        guard let id = PickListID(text) else { throw .notFound }
        return id
    }
}

// The PickList library is pure and compares ids as text; these two initialisers are the one
// place a service id becomes a library id: its text form, `ID.description`. Ids only travel
// that way: the service finds its own typed ids again through its record's lines.

extension PickList.OrderID {
    /// The library's id for the service's order `id`.
    package init(_ id: FulfilmentDomain.OrderID) { self.init(rawValue: id.description) }
}

extension PickList.ProductID {
    /// The library's id for the service's product `id`.
    package init(_ id: FulfilmentDomain.ProductID) { self.init(rawValue: id.description) }
}

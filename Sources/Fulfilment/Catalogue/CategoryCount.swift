/// A category of the catalogue and how many products are in it (at one store, when asked).
struct CategoryCount: Sendable, Equatable {
    var name: String
    var productCount: Int
}

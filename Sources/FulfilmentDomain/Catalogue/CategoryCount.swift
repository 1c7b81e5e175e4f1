/// A category of the catalogue and how many products are in it (at one store, when asked).
package struct CategoryCount: Sendable, Equatable {
    package var name: String
    package var productCount: Int
}

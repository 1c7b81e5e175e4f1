/// A category of the catalogue and how many products are in it (at one store, when asked).
package struct CategoryCount: Sendable, Equatable {
    package var name: String
    package var productCount: Int
    /// What the shop says about it (issue 45); empty when nobody wrote one.
    package var description: String = ""
    /// The product whose first image is its picture; nil without one.
    package var imageProductID: ProductID? = nil
}

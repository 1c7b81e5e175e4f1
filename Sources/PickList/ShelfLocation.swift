/// Where a product lives: aisle, zone, bay along the aisle, shelf within the bay.
public struct ShelfLocation: Hashable, Sendable {
    public var aisle: Aisle
    public var zone: TemperatureZone
    /// Position along the aisle, numbered from the same end in every aisle; the route goes up or
    /// down the bays depending on the aisle's place in the serpentine.
    public var bay: Int
    /// Shelf within the bay, e.g. "1" or "B". Ordered numerically when it is digits.
    public var shelf: String

    public init(aisle: Aisle, zone: TemperatureZone, bay: Int, shelf: String) {
        self.aisle = aisle
        self.zone = zone
        self.bay = bay
        self.shelf = shelf
    }
}

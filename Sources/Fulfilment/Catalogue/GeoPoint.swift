import Foundation

/// A place in degrees (WGS 84): where a store is, or where a customer asks from. Checked where
/// it comes in (`StoreRules.location`, `GeoPoint.parse(near:)`); the database checks the same
/// ranges again for stores.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        (self.latitude, self.longitude) = (latitude, longitude)
    }

    /// Finite, latitude -90 to 90 and longitude -180 to 180.
    public var isOnEarth: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `lat,lng` as a query sends it (`18.0179,-76.8099`); `invalidField(field)` for anything
    /// else, or a place off the Earth's ranges.
    static func parse(_ text: String, field: String) throws(CatalogueError) -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let message = "Send latitude,longitude in degrees: latitude -90 to 90, longitude -180 to 180 (18.0179,-76.8099)."
        guard text.utf8.count <= 64, parts.count == 2,
            let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { throw .invalidField(field, message) }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isOnEarth else { throw .invalidField(field, message) }
        return point
    }
}

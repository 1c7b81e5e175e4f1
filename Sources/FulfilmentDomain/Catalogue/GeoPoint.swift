import Foundation

/// A place in degrees (WGS 84): where a store is, or where a customer asks from. Checked where
/// it comes in (`StoreRules.location`, `GeoPoint.parse(_:field:)`); the database checks the same
/// ranges again for stores.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        (self.latitude, self.longitude) = (latitude, longitude)
    }

    /// The great-circle distance to `other` in metres (haversine, the Earth's mean radius): what
    /// the store finder sorts by, as `distance_metres` does in SQL.
    package func metres(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_008.8 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// Finite, latitude -90 to 90 and longitude -180 to 180.
    public var isOnEarth: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `lat,lng` as a query sends it (`18.0179,-76.8099`): plain decimals as the contract's pattern
    /// has them (no spaces, signs but `-`, exponents or leading zeros); `invalidField(field)` for
    /// anything else, or a place off the Earth's ranges.
    package static func parse(_ text: String, field: String) throws(CatalogueError) -> GeoPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let message = "Send latitude,longitude in degrees: latitude -90 to 90, longitude -180 to 180 (18.0179,-76.8099)."
        guard text.utf8.count <= 64, parts.count == 2, let latitude = decimal(parts[0]), let longitude = decimal(parts[1]) else {
            throw .invalidField(field, message)
        }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isOnEarth else { throw .invalidField(field, message) }
        return point
    }

    /// `-?D{1,3}(.D+)?`, no leading zero but a lone one, as a Double.
    private static func decimal(_ text: Substring) -> Double? {
        let unsigned = text.utf8.first == UInt8(ascii: "-") ? text.dropFirst() : text
        let pieces = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (piece: Substring) in !piece.isEmpty && piece.utf8.allSatisfy { (48...57).contains($0) } }
        guard let whole = pieces.first, isDigits(whole), whole.utf8.count <= 3, whole == "0" || whole.utf8.first != UInt8(ascii: "0"),
            pieces.count == 1 || isDigits(pieces[1])
        else { return nil }
        return Double(text)
    }
}

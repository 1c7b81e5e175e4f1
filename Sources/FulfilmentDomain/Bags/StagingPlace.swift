import Foundation

public enum StagingPlaceTag {}
/// A staging place's id.
public typealias StagingPlaceID = ID<StagingPlaceTag>

/// What a staging place is: chilled bags go in a fridge, frozen ones in a freezer (a locker or a
/// kerb bay holds ambient bags only, unless it is a fridge or freezer by kind).
public enum StagingPlaceKind: String, Sendable, Equatable, CaseIterable {
    case shelf, fridge, freezer, locker
    case kerbBay = "kerb_bay"

    /// Whether a bag of `zone` may wait here: ambient bags anywhere, chilled in a fridge,
    /// frozen in a freezer.
    package func holds(_ zone: BagZone) -> Bool {
        switch zone {
        case .ambient: true
        case .chilled: self == .fridge
        case .frozen: self == .freezer
        }
    }
}

/// One of a store's staging places, in the order its manager listed them.
public struct StagingPlace: Sendable, Equatable {
    public var id: StagingPlaceID
    public var name: String
    public var kind: StagingPlaceKind
    /// Bags in it now, not yet handed over.
    public var bagsHeld: Int

    /// A store's places as a manager sends them: names still to be checked.
    package struct Draft: Sendable, Equatable {
        package var name: String
        package var kind: StagingPlaceKind

        package init(name: String, kind: StagingPlaceKind) {
            self.name = name
            self.kind = kind
        }
    }

    /// How many places a store can keep.
    package static let count = 0...100

    /// The places `drafts` describe: names trimmed, 1 to 60 characters as sent, each once; 422
    /// `invalid_staging_places` naming the field otherwise.
    package static func validated(_ drafts: [Draft]) throws(BagError) -> [Draft] {
        guard count.contains(drafts.count) else { throw .invalidPlaces(field: "places", message: "A store keeps at most 100 places.") }
        var seen = Set<String>()
        return try drafts.enumerated().map { (index, draft) throws(BagError) in
            guard (1...60).contains(draft.name.unicodeScalars.count), !draft.name.unicodeScalars.contains("\0") else {
                throw .invalidPlaces(field: "places[\(index)].name", message: "A place's name is 1 to 60 characters.")
            }
            let name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else {
                throw .invalidPlaces(field: "places[\(index)].name", message: "A place's name is 1 to 60 characters.")
            }
            guard seen.insert(name.lowercased()).inserted else {
                throw .invalidPlaces(field: "places[\(index)].name", message: "\"\(name)\" is named twice.")
            }
            return Draft(name: name, kind: draft.kind)
        }
    }
}

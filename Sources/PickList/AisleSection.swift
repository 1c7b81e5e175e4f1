/// The stops in one aisle within one zone pass; printed under one aisle heading.
///
/// An aisle with locations in two zones appears once in each zone's pass.
public struct AisleSection: Hashable, Sendable {
    public let zone: TemperatureZone
    public let aisle: Aisle
    /// Which way the picker walks this aisle's bays.
    public let bayDirection: BayDirection
    /// Never empty: aisles with nothing to pick are not part of the route.
    public let stops: [PickStop]
}

import FulfilmentDomain

/// A list payload of the contract: `{"items": [...], "nextCursor": "..." | null}`.
///
/// Conforming a generated list schema here makes it write `"nextCursor": null` on the last
/// page, as the contract says: the generated (synthesized) encoding omits nil properties, even
/// required nullable ones (apple/swift-openapi-generator#934).
protocol CursorList: Encodable {
    associatedtype Item: Encodable
    var items: [Item] { get }
    var nextCursor: String? { get }
}

private enum CursorListKeys: String, CodingKey {
    case items
    case nextCursor
}

extension CursorList {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CursorListKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

extension Components.Schemas.StoreList: CursorList {}
extension Components.Schemas.CollectorPassList: CursorList {}
extension Components.Schemas.AisleList: CursorList {}
extension Components.Schemas.ProductList: CursorList {}
extension Components.Schemas.LocateList: CursorList {}
extension Components.Schemas.CategoryList: CursorList {}
extension Components.Schemas.BestPriceList: CursorList {}
extension Components.Schemas.StockList: CursorList {}
extension Components.Schemas.FavouriteList: CursorList {}
extension Components.Schemas.OrderList: CursorList {}
extension Components.Schemas.PickupKeyList: CursorList {}
extension Components.Schemas.PickListSummaryList: CursorList {}
extension Components.Schemas.StockMovementList: CursorList {}
extension Components.Schemas.WebhookEndpointList: CursorList {}
extension Components.Schemas.WebhookDeliveryList: CursorList {}
extension Components.Schemas.SaleList: CursorList {}
extension Components.Schemas.NewsList: CursorList {}
extension Components.Schemas.CommentList: CursorList {}
extension Components.Schemas.RecipeList: CursorList {}
extension Components.Schemas.ReviewList: CursorList {}
extension Components.Schemas.ContentReportList: CursorList {}
extension Components.Schemas.PostingBlockList: CursorList {}
extension Components.Schemas.StockCheckList: CursorList {}

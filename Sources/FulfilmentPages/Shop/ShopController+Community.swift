import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The store's news and the community's recipes in the shop (issue 45).
extension ShopController {
    func registerShopCommunity(on router: RouteCollection<AppRequestContext>) {
    }
}

import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// A product's own page and the shop's listings (issue 45).
extension ShopController {
    func registerShopProducts(on router: RouteCollection<AppRequestContext>) {
    }
}

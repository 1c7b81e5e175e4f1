import Foundation

/// The demo store that `fulfilment seed --demo` loads: one Quick Cart branch in
/// Kingston with twelve aisles and about a hundred everyday Jamaican grocery lines, and
/// a second branch in Montego Bay with the packaged lines at a few prices of its own.
///
/// It exists so that a fresh development or demo database behaves like a real
/// shop rather than an empty one: product search has familiar names and brands to
/// match (several Grace, Lasco, Excelsior and National lines), locate has real
/// aisle / bay / shelf positions to return, and pick lists come out in a sensible
/// walk order across ambient, chilled and frozen zones. A handful of lines are
/// deliberately awkward (low stock, out of stock, loose items without barcodes,
/// products not yet slotted to an aisle) so those paths can be demonstrated too.
///
/// Prices are in JMD minor units (cents): `80100` is J$801.00. Barcodes are valid
/// EAN-13 codes, but they are invented for the demo and do not identify real
/// trade items.

/// One aisle of the demo store, in the order a picker walks the floor.
package struct DemoAisle: Sendable {
    /// Aisle code as printed on the aisle sign, e.g. `"6"`.
    package let code: String
    package let name: String
    /// Position in the pick walk (1 is walked first). Not always equal to `code`.
    package let walkOrder: Int
    /// Temperature zone: `"ambient"`, `"chilled"` or `"frozen"`.
    package let zone: String
}

/// One product line in the demo store, with its shelf location and stock level.
package struct DemoProduct: Sendable {
    /// Store SKU, unique, e.g. `"QC-0001"`.
    package let sku: String
    /// EAN-13 barcode (valid check digit), unique; `nil` for loose produce and in-store bakery items.
    package let barcode: String?
    package let name: String
    /// Manufacturer or brand owner, e.g. `"Grace"`, `"Hormel"`, `"Quick Cart"` (own label and loose items).
    package let brand: String
    package let category: String
    /// One short sentence for search results and product pages.
    package let description: String
    /// Shelf price in JMD cents.
    package let price: Int
    /// Aisle code (see `DemoCatalogue.aisles`); `nil` when the product has not been slotted yet.
    package let aisle: String?
    /// Bay within the aisle, 1...8.
    package let bay: Int
    /// Shelf within the bay, `"A"` (bottom) to `"E"` (top).
    package let shelf: String
    package let onHand: Int
    package let minSupply: Int
}

/// Static data for the demo store; see the note at the top of this file.
package enum DemoCatalogue {
    package static let storeCode = "QC-KGN"
    package static let storeName = "Quick Cart Half Way Tree"
    package static let storeAddress = "Half Way Tree Road, Kingston, Jamaica"
    /// Open 08:00–20:00 every day in Kingston, late until 22:00 on Fridays; half-hour slots of
    /// four orders, booked at least two hours and at most a week ahead, collectable for a day after.
    package static let calendar = StoreCalendar(
        timeZone: TimeZone(identifier: "America/Jamaica")!,
        hours: (1...7).map { StoreCalendar.Range(weekday: $0, opens: 8 * 60, closes: $0 == 5 ? 22 * 60 : 20 * 60) },
        closures: [], slotMinutes: 30, capacity: 4, leadMinutes: 120, horizonDays: 7, graceMinutes: 1440)
    /// Its rota (issue 47): two pickers an hour, one at opening (08:00–09:00, while the shelves
    /// are filled), three at the busy times (Friday 17:00–22:00, Saturday 10:00–14:00). A
    /// half-hour slot of two pickers takes 2 × 1,800 s × 80 % = 2,880 s of picking: about ten
    /// ten-line orders, more than its four places.
    package static let rota = StoreRota(
        defaultPickers: 2,
        hours: (1...7).flatMap { weekday -> [StoreRota.Hour] in
            [StoreRota.Hour(weekday: weekday, hour: 8, pickers: 1)]
                + (weekday == 5 ? (17..<22).map { StoreRota.Hour(weekday: 5, hour: $0, pickers: 3) } : [])
                + (weekday == 6 ? (10..<14).map { StoreRota.Hour(weekday: 6, hour: $0, pickers: 3) } : [])
        })
    /// Where its packed bags wait (issue 47): a shelf, the fridge, the freezer and a kerb bay.
    package static let stagingPlaces: [StagingPlace.Draft] = [
        .init(name: "Shelf A", kind: .shelf), .init(name: "Fridge", kind: .fridge), .init(name: "Freezer", kind: .freezer),
        .init(name: "Kerb bay 1", kind: .kerbBay),
    ]
    package static let currency = "JMD"
    /// The store finder's number for the demo store.
    package static let storePhone = "+1 876 555 0142"

    /// What the shop's front page says under each category (issue 45).
    package static let categoryDescriptions: [(String, String)] = [
        ("Produce", "Fresh from Jamaican farms: breadfruit, callaloo, yam, peppers and more."),
        ("Bakery", "Hard dough bread, bulla and buns, baked every morning."),
        ("Beverages", "Juices, sodas, water and the island's favourite malts."),
        ("Breakfast", "Porridge, cereal and everything for the first meal."),
        ("Canned goods", "Ackee, beans, corned beef and coconut milk for the cupboard."),
        ("Condiments", "Ketchup, pepper sauce and the sauces on every table."),
        ("Dairy", "Milk, cheese, butter and yoghurt, kept cold."),
        ("Deli", "Sliced meats and cheeses, cut to order."),
        ("Frozen", "Ice cream, frozen vegetables and quick meals."),
        ("Household", "Cleaning, laundry and paper for the home."),
        ("Meat", "Chicken, pork, goat and fish from the counter."),
        ("Personal care", "Soap, toothpaste and care for every day."),
        ("Rice & grains", "Rice, flour and cornmeal: parboiled, long grain, brown."),
        ("Snacks", "Crackers, chips and sweets for between meals."),
        ("Spices", "Jerk seasoning, allspice, curry and thyme."),
    ]

    /// Where the demo store is, for the best price's distances.
    package static let storeLocation = GeoPoint(latitude: 18.0123, longitude: -76.7991)

    /// The chain's second branch, so the best price by barcode has two stores to compare. It has
    /// the same aisles and calendar, and carries every line with a barcode (the packaged goods,
    /// not the loose produce or the in-store bakery) in the same places.
    package static let secondStoreCode = "QC-MBJ"
    package static let secondStoreName = "Quick Cart Fairview"
    package static let secondStoreAddress = "Fairview Shopping Centre, Bogue, Montego Bay, Jamaica"
    package static let secondStoreLocation = GeoPoint(latitude: 18.4589, longitude: -77.9192)
    /// The second branch's own prices (JMD cents) by SKU, some below the catalogue's and some
    /// above; every other line costs what the catalogue says.
    package static let secondStorePrices: [String: Int] = [
        "QC-0011": 49_500, "QC-0019": 79_500, "QC-0022": 119_000, "QC-0024": 22_500, "QC-0034": 29_900,
    ]
    /// The second branch's stock where it differs from the first's: its cornmeal is sold out, and
    /// it has the line sold out in Kingston (QC-0043).
    package static let secondStoreOnHand: [String: Int] = ["QC-0021": 0, "QC-0043": 24]

    /// Twelve aisles. The floor is walked produce-first and the chilled run is walked
    /// meat (7) before dairy (6), so `walkOrder` differs from `code` for those two.
    package static let aisles: [DemoAisle] = [
        DemoAisle(code: "1", name: "Produce", walkOrder: 1, zone: "ambient"),
        DemoAisle(code: "2", name: "Bakery", walkOrder: 2, zone: "ambient"),
        DemoAisle(code: "3", name: "Rice, flour & grains", walkOrder: 3, zone: "ambient"),
        DemoAisle(code: "4", name: "Canned goods", walkOrder: 4, zone: "ambient"),
        DemoAisle(code: "5", name: "Spices & sauces", walkOrder: 5, zone: "ambient"),
        DemoAisle(code: "6", name: "Dairy", walkOrder: 7, zone: "chilled"),
        DemoAisle(code: "7", name: "Meat & seafood", walkOrder: 6, zone: "chilled"),
        DemoAisle(code: "8", name: "Deli", walkOrder: 8, zone: "chilled"),
        DemoAisle(code: "9", name: "Frozen foods", walkOrder: 9, zone: "frozen"),
        DemoAisle(code: "10", name: "Beverages", walkOrder: 10, zone: "ambient"),
        DemoAisle(code: "11", name: "Snacks & breakfast", walkOrder: 11, zone: "ambient"),
        DemoAisle(code: "12", name: "Household & personal care", walkOrder: 12, zone: "ambient"),
    ]

    /// About a hundred products spread over all twelve aisles.
    ///
    /// Edge cases on purpose:
    /// - low stock (0 < onHand <= minSupply): QC-0034, QC-0076, QC-0086, QC-0098
    /// - out of stock (onHand == 0): QC-0043
    /// - not yet slotted (aisle == nil): QC-0026, QC-0047
    /// - loose items without a barcode: produce and in-store bakery.
    package static let products: [DemoProduct] = [
        // MARK: Aisle 1 - Produce (ambient)
        DemoProduct(
            sku: "QC-0001", barcode: nil, name: "Breadfruit", brand: "Quick Cart",
            category: "Produce", description: "Whole Jamaican breadfruit, sold each, perfect for roasting.",
            price: 45000, aisle: "1", bay: 1, shelf: "B", onHand: 103, minSupply: 5),
        DemoProduct(
            sku: "QC-0002", barcode: nil, name: "Green Bananas", brand: "Quick Cart",
            category: "Produce", description: "Hand of green cooking bananas, priced per kilogram.",
            price: 32000, aisle: "1", bay: 2, shelf: "C", onHand: 69, minSupply: 13),
        DemoProduct(
            sku: "QC-0003", barcode: nil, name: "Ripe Plantain", brand: "Quick Cart",
            category: "Produce", description: "Sweet ripe plantain for frying, sold each.",
            price: 12000, aisle: "1", bay: 3, shelf: "D", onHand: 31, minSupply: 18),
        DemoProduct(
            sku: "QC-0004", barcode: nil, name: "Scotch Bonnet Peppers 100g", brand: "Quick Cart",
            category: "Produce", description: "Fiery local scotch bonnet peppers, loose by weight.",
            price: 15000, aisle: "1", bay: 4, shelf: "A", onHand: 81, minSupply: 7),
        DemoProduct(
            sku: "QC-0005", barcode: nil, name: "Callaloo Bundle", brand: "Quick Cart",
            category: "Produce", description: "Fresh-cut callaloo bundle from St. Elizabeth farms.",
            price: 25000, aisle: "1", bay: 5, shelf: "E", onHand: 35, minSupply: 5),
        DemoProduct(
            sku: "QC-0006", barcode: nil, name: "Yellow Yam", brand: "Quick Cart",
            category: "Produce", description: "Yellow yam priced per kilogram.",
            price: 62000, aisle: "1", bay: 6, shelf: "B", onHand: 82, minSupply: 14),
        DemoProduct(
            sku: "QC-0007", barcode: nil, name: "Sweet Potato", brand: "Quick Cart",
            category: "Produce", description: "Local sweet potato priced per kilogram.",
            price: 48000, aisle: "1", bay: 7, shelf: "C", onHand: 120, minSupply: 20),
        DemoProduct(
            sku: "QC-0008", barcode: nil, name: "Escallion & Thyme Bundle", brand: "Quick Cart",
            category: "Produce", description: "Fresh escallion and thyme tied together for seasoning.",
            price: 18000, aisle: "1", bay: 8, shelf: "D", onHand: 75, minSupply: 9),
        DemoProduct(
            sku: "QC-0009", barcode: "7649990110271", name: "Irish Potatoes 2kg Bag", brand: "Quick Cart",
            category: "Produce", description: "Bagged Jamaican-grown Irish potatoes.",
            price: 78000, aisle: "1", bay: 1, shelf: "A", onHand: 73, minSupply: 7),
        DemoProduct(
            sku: "QC-0010", barcode: "7649990111643", name: "Carrots 1kg Bag", brand: "Quick Cart",
            category: "Produce", description: "Washed local carrots in a one kilogram bag.",
            price: 42000, aisle: "1", bay: 2, shelf: "E", onHand: 60, minSupply: 16),
        // MARK: Aisle 2 - Bakery (ambient)
        DemoProduct(
            sku: "QC-0011", barcode: "7640056007535", name: "National Hard Dough Bread 800g", brand: "National",
            category: "Bakery", description: "Classic sliced Jamaican hard dough bread.",
            price: 48000, aisle: "2", bay: 1, shelf: "B", onHand: 102, minSupply: 19),
        DemoProduct(
            sku: "QC-0012", barcode: "7640056008907", name: "National Whole Wheat Bread 680g", brand: "National",
            category: "Bakery", description: "Sliced whole wheat sandwich loaf.",
            price: 52000, aisle: "2", bay: 2, shelf: "C", onHand: 100, minSupply: 11),
        DemoProduct(
            sku: "QC-0013", barcode: "7640056010276", name: "National Spice Bun 1.1kg", brand: "National",
            category: "Bakery", description: "Rich, fruity spice bun, great with cheese.",
            price: 98000, aisle: "2", bay: 3, shelf: "D", onHand: 26, minSupply: 20),
        DemoProduct(
            sku: "QC-0014", barcode: "7640056011648", name: "National Bulla Cakes 4-pack", brand: "National",
            category: "Bakery", description: "Soft molasses and ginger bulla cakes.",
            price: 26000, aisle: "2", bay: 4, shelf: "A", onHand: 42, minSupply: 17),
        DemoProduct(
            sku: "QC-0015", barcode: "7640063008303", name: "Holsum Hardo Bread 680g", brand: "Holsum",
            category: "Bakery", description: "Sliced hardo bread with a soft, dense crumb.",
            price: 45000, aisle: "2", bay: 5, shelf: "E", onHand: 120, minSupply: 5),
        DemoProduct(
            sku: "QC-0016", barcode: nil, name: "Baguette", brand: "Quick Cart",
            category: "Bakery", description: "French-style baguette baked in store every morning.",
            price: 30000, aisle: "2", bay: 6, shelf: "B", onHand: 70, minSupply: 5),
        DemoProduct(
            sku: "QC-0017", barcode: nil, name: "Coco Bread", brand: "Quick Cart",
            category: "Bakery", description: "Soft folded coco bread, baked in store.",
            price: 15000, aisle: "2", bay: 7, shelf: "C", onHand: 27, minSupply: 7),
        DemoProduct(
            sku: "QC-0018", barcode: "7649990113012", name: "Cassava Bammy 2-pack", brand: "Quick Cart",
            category: "Bakery", description: "Traditional cassava bammies, ready to soak and fry.",
            price: 36000, aisle: "2", bay: 8, shelf: "D", onHand: 90, minSupply: 15),
        // MARK: Aisle 3 - Rice, flour & grains (ambient)
        DemoProduct(
            sku: "QC-0019", barcode: "7640012002697", name: "Grace Parboiled Long Grain Rice 2kg", brand: "Grace",
            category: "Rice & grains", description: "Parboiled long grain white rice.",
            price: 82000, aisle: "3", bay: 1, shelf: "B", onHand: 32, minSupply: 18),
        DemoProduct(
            sku: "QC-0020", barcode: "7640264030417", name: "Counter Flour All-Purpose 2kg", brand: "Jamaica Flour Mills",
            category: "Rice & grains", description: "All-purpose flour for dumplings, festival and baking.",
            price: 54000, aisle: "3", bay: 2, shelf: "C", onHand: 94, minSupply: 15),
        DemoProduct(
            sku: "QC-0021", barcode: "7640012004066", name: "Grace Yellow Cornmeal 1kg", brand: "Grace",
            category: "Rice & grains", description: "Fine yellow cornmeal for porridge and festival.",
            price: 36000, aisle: "3", bay: 3, shelf: "D", onHand: 106, minSupply: 11),
        DemoProduct(
            sku: "QC-0022", barcode: "0030000001370", name: "Quaker Old Fashioned Oats 1.19kg", brand: "Quaker",
            category: "Rice & grains", description: "Whole rolled oats for porridge.",
            price: 115000, aisle: "3", bay: 4, shelf: "A", onHand: 99, minSupply: 7),
        DemoProduct(
            sku: "QC-0023", barcode: "7640012005438", name: "Grace Dried Red Peas 400g", brand: "Grace",
            category: "Rice & grains", description: "Dried red kidney beans for rice and peas and stew peas.",
            price: 42000, aisle: "3", bay: 5, shelf: "E", onHand: 72, minSupply: 19),
        DemoProduct(
            sku: "QC-0024", barcode: "7640012006800", name: "Grace Spaghetti 400g", brand: "Grace",
            category: "Rice & grains", description: "Durum wheat spaghetti.",
            price: 24000, aisle: "3", bay: 6, shelf: "B", onHand: 59, minSupply: 13),
        DemoProduct(
            sku: "QC-0025", barcode: "7649990114385", name: "Quick Cart Brown Sugar 2kg", brand: "Quick Cart",
            category: "Rice & grains", description: "Jamaican brown sugar in a resealable bag.",
            price: 52000, aisle: "3", bay: 7, shelf: "C", onHand: 16, minSupply: 13),
        DemoProduct(
            sku: "QC-0026", barcode: "7640137016449", name: "Lasco Soy Chunks 200g", brand: "Lasco",  // unlocated: awaiting slotting
            category: "Rice & grains", description: "Textured soy protein chunks for Ital stews.",
            price: 22000, aisle: nil, bay: 1, shelf: "A", onHand: 38, minSupply: 11),
        DemoProduct(
            sku: "QC-0027", barcode: "7640271031186", name: "Golden Ace Vegetable Oil 1.89L", brand: "Golden Ace",
            category: "Rice & grains", description: "Refined vegetable cooking oil.",
            price: 98000, aisle: "3", bay: 8, shelf: "D", onHand: 88, minSupply: 9),
        // MARK: Aisle 4 - Canned goods (ambient)
        DemoProduct(
            sku: "QC-0028", barcode: "0037600067379", name: "Spam Classic Luncheon Meat 340g", brand: "Hormel",
            category: "Canned goods", description: "The original canned luncheon meat, great fried for breakfast.",
            price: 80100, aisle: "4", bay: 1, shelf: "B", onHand: 64, minSupply: 15),
        DemoProduct(
            sku: "QC-0029", barcode: "7640012008170", name: "Grace Ackee in Brine 540g", brand: "Grace",
            category: "Canned goods", description: "Jamaican ackee in brine, ready for ackee and saltfish.",
            price: 119900, aisle: "4", bay: 2, shelf: "C", onHand: 29, minSupply: 19),
        DemoProduct(
            sku: "QC-0030", barcode: "7640012009542", name: "Grace Mackerel in Tomato Sauce 425g", brand: "Grace",
            category: "Canned goods", description: "Mackerel in a rich tomato sauce.",
            price: 48000, aisle: "4", bay: 3, shelf: "D", onHand: 28, minSupply: 7),
        DemoProduct(
            sku: "QC-0031", barcode: "7640012010913", name: "Grace Corned Beef 340g", brand: "Grace",
            category: "Canned goods", description: "Canned corned beef for bully beef and rice.",
            price: 65000, aisle: "4", bay: 4, shelf: "A", onHand: 118, minSupply: 8),
        DemoProduct(
            sku: "QC-0032", barcode: "7640012012283", name: "Grace Vienna Sausages 130g", brand: "Grace",
            category: "Canned goods", description: "Tender Vienna sausages in brine.",
            price: 21000, aisle: "4", bay: 5, shelf: "E", onHand: 115, minSupply: 14),
        DemoProduct(
            sku: "QC-0033", barcode: "7640012013655", name: "Grace Red Kidney Beans 400g", brand: "Grace",
            category: "Canned goods", description: "Cooked red kidney beans, ready to use.",
            price: 28000, aisle: "4", bay: 6, shelf: "B", onHand: 90, minSupply: 20),
        DemoProduct(
            sku: "QC-0034", barcode: "7640012015024", name: "Grace Coconut Milk 400ml", brand: "Grace",
            category: "Canned goods", description: "Creamy coconut milk for rice and peas and run down.",
            price: 32000, aisle: "4", bay: 7, shelf: "C", onHand: 4, minSupply: 12),
        DemoProduct(
            sku: "QC-0035", barcode: "7640012016397", name: "Grace Callaloo 540g", brand: "Grace",
            category: "Canned goods", description: "Steamed callaloo in a can, ready to heat.",
            price: 36000, aisle: "4", bay: 8, shelf: "D", onHand: 55, minSupply: 18),
        DemoProduct(
            sku: "QC-0036", barcode: "7640012017769", name: "Grace Hominy Corn 425g", brand: "Grace",
            category: "Canned goods", description: "Whole hominy corn for a traditional porridge.",
            price: 26000, aisle: "4", bay: 1, shelf: "A", onHand: 79, minSupply: 5),
        DemoProduct(
            sku: "QC-0037", barcode: "7640078009951", name: "Betty Sweetened Condensed Milk 395g", brand: "Betty",
            category: "Canned goods", description: "Sweetened condensed milk for punches and porridge.",
            price: 38000, aisle: "4", bay: 2, shelf: "E", onHand: 36, minSupply: 9),
        DemoProduct(
            sku: "QC-0038", barcode: "7640078011329", name: "Betty Evaporated Milk 354ml", brand: "Betty",
            category: "Canned goods", description: "Evaporated milk for tea, coffee and baking.",
            price: 25000, aisle: "4", bay: 3, shelf: "B", onHand: 62, minSupply: 5),
        // MARK: Aisle 5 - Spices & sauces (ambient)
        DemoProduct(
            sku: "QC-0039", barcode: "7640085010728", name: "Betapac Chilli Powder 30g", brand: "Betapac",
            category: "Spices", description: "Ground chilli powder with a warm kick.",
            price: 21000, aisle: "5", bay: 1, shelf: "B", onHand: 39, minSupply: 8),
        DemoProduct(
            sku: "QC-0040", barcode: "7640085012098", name: "Betapac Jamaican Curry Powder 60g", brand: "Betapac",
            category: "Spices", description: "Turmeric-rich curry powder for curry goat and chicken.",
            price: 26000, aisle: "5", bay: 2, shelf: "C", onHand: 76, minSupply: 12),
        DemoProduct(
            sku: "QC-0041", barcode: "7640085013460", name: "Betapac All Purpose Seasoning 150g", brand: "Betapac",
            category: "Spices", description: "All purpose seasoning salt for meat and fish.",
            price: 32000, aisle: "5", bay: 3, shelf: "D", onHand: 75, minSupply: 8),
        DemoProduct(
            sku: "QC-0042", barcode: "7649990115757", name: "Quick Cart Moringa Powder 100g", brand: "Quick Cart",
            category: "Spices", description: "Dried, finely milled moringa leaf powder.",
            price: 85000, aisle: "5", bay: 4, shelf: "A", onHand: 86, minSupply: 17),
        DemoProduct(
            sku: "QC-0043", barcode: "7640092011497", name: "Walkerswood Jerk Seasoning Hot & Spicy 280g", brand: "Walkerswood",
            category: "Spices", description: "Traditional Jamaican jerk marinade paste.",
            price: 98000, aisle: "5", bay: 5, shelf: "E", onHand: 0, minSupply: 10),
        DemoProduct(
            sku: "QC-0044", barcode: "7640012019138", name: "Grace Jerk Seasoning 312g", brand: "Grace",
            category: "Spices", description: "Hot jerk seasoning paste for chicken and pork.",
            price: 72000, aisle: "5", bay: 6, shelf: "B", onHand: 26, minSupply: 10),
        DemoProduct(
            sku: "QC-0045", barcode: "7640012020509", name: "Grace Browning 142ml", brand: "Grace",
            category: "Condiments", description: "Caramel browning for stews and black cake.",
            price: 24000, aisle: "5", bay: 7, shelf: "C", onHand: 57, minSupply: 18),
        DemoProduct(
            sku: "QC-0046", barcode: "7640104012818", name: "Pickapeppa Sauce 142ml", brand: "Pickapeppa",
            category: "Condiments", description: "Tangy, sweet Jamaican table sauce aged in oak.",
            price: 54000, aisle: "5", bay: 8, shelf: "D", onHand: 93, minSupply: 8),
        // Unlocated: awaiting slotting.
        DemoProduct(
            sku: "QC-0047", barcode: "7640118014358", name: "Busha Browne's Original Jerk Sauce 200ml", brand: "Busha Browne's",
            category: "Condiments", description: "Spicy Jamaican jerk sauce for grilling.",
            price: 88000, aisle: nil, bay: 1, shelf: "A", onHand: 120, minSupply: 12),
        DemoProduct(
            sku: "QC-0048", barcode: "7640012021872", name: "Grace Cock Soup Mix 50g", brand: "Grace",
            category: "Spices", description: "Chicken noodle soup mix with a peppery kick.",
            price: 12000, aisle: "5", bay: 1, shelf: "A", onHand: 113, minSupply: 18),
        // MARK: Aisle 6 - Dairy (chilled)
        DemoProduct(
            sku: "QC-0049", barcode: "8000430048674", name: "Galbani Mozzarella Block 227g", brand: "Galbani",
            category: "Dairy", description: "Mild, stretchy mozzarella for pizza and pasta.",
            price: 119000, aisle: "6", bay: 1, shelf: "B", onHand: 28, minSupply: 8),
        DemoProduct(
            sku: "QC-0050", barcode: "9415007002147", name: "Anchor Mature Cheddar 250g", brand: "Anchor",
            category: "Dairy", description: "Sharp mature cheddar block.",
            price: 128000, aisle: "6", bay: 2, shelf: "C", onHand: 67, minSupply: 17),
        DemoProduct(
            sku: "QC-0051", barcode: "7640149017762", name: "Tastee Processed Cheddar Cheese 500g", brand: "Tastee",
            category: "Dairy", description: "Processed cheddar, the classic partner for bun.",
            price: 138000, aisle: "6", bay: 3, shelf: "D", onHand: 25, minSupply: 18),
        DemoProduct(
            sku: "QC-0052", barcode: "9415007003519", name: "Anchor Salted Butter 227g", brand: "Anchor",
            category: "Dairy", description: "Creamery salted butter.",
            price: 89000, aisle: "6", bay: 4, shelf: "A", onHand: 114, minSupply: 14),
        DemoProduct(
            sku: "QC-0053", barcode: "8710908101250", name: "Blue Band Margarine 500g", brand: "Blue Band",
            category: "Dairy", description: "Spreadable margarine for bread and baking.",
            price: 42000, aisle: "6", bay: 5, shelf: "E", onHand: 20, minSupply: 8),
        DemoProduct(
            sku: "QC-0054", barcode: "7640125015126", name: "Serge Island Whole Milk 1L", brand: "Serge Island",
            category: "Dairy", description: "Fresh pasteurised Jamaican whole milk.",
            price: 36000, aisle: "6", bay: 6, shelf: "B", onHand: 116, minSupply: 19),
        DemoProduct(
            sku: "QC-0055", barcode: "7640125016499", name: "Serge Island Strawberry Yogurt 150g", brand: "Serge Island",
            category: "Dairy", description: "Creamy strawberry yogurt cup.",
            price: 16500, aisle: "6", bay: 7, shelf: "C", onHand: 10, minSupply: 6),
        DemoProduct(
            sku: "QC-0056", barcode: "7649990117126", name: "Quick Cart Large Eggs 15-pack", brand: "Quick Cart",
            category: "Dairy", description: "Fresh local large eggs.",
            price: 75000, aisle: "6", bay: 8, shelf: "D", onHand: 79, minSupply: 9),
        // MARK: Aisle 7 - Meat & seafood (chilled)
        DemoProduct(
            sku: "QC-0057", barcode: "7640153018205", name: "Best Dressed Whole Chicken 1.8kg", brand: "Best Dressed",
            category: "Meat", description: "Fresh whole chicken, locally raised.",
            price: 145000, aisle: "7", bay: 1, shelf: "B", onHand: 117, minSupply: 8),
        DemoProduct(
            sku: "QC-0058", barcode: "7640153019578", name: "Best Dressed Chicken Leg Quarters 1.36kg", brand: "Best Dressed",
            category: "Meat", description: "Fresh chicken leg quarters for brown stew and jerk.",
            price: 98000, aisle: "7", bay: 2, shelf: "C", onHand: 37, minSupply: 19),
        DemoProduct(
            sku: "QC-0059", barcode: "7640160018977", name: "CB Boneless Chicken Breast 907g", brand: "CB",
            category: "Meat", description: "Skinless boneless chicken breast fillets.",
            price: 142000, aisle: "7", bay: 3, shelf: "D", onHand: 75, minSupply: 18),
        DemoProduct(
            sku: "QC-0060", barcode: "7649990118499", name: "Quick Cart Oxtail 907g", brand: "Quick Cart",
            category: "Meat", description: "Cut oxtail for slow-braised oxtail and beans.",
            price: 450000, aisle: "7", bay: 4, shelf: "A", onHand: 54, minSupply: 9),
        DemoProduct(
            sku: "QC-0061", barcode: "7649990119861", name: "Quick Cart Curry Goat Cut 907g", brand: "Quick Cart",
            category: "Meat", description: "Bone-in goat pieces cut for curry goat.",
            price: 285000, aisle: "7", bay: 5, shelf: "E", onHand: 72, minSupply: 13),
        DemoProduct(
            sku: "QC-0062", barcode: "7649990121239", name: "Quick Cart Minced Beef 454g", brand: "Quick Cart",
            category: "Meat", description: "Lean minced beef.",
            price: 115000, aisle: "7", bay: 6, shelf: "B", onHand: 118, minSupply: 5),
        DemoProduct(
            sku: "QC-0063", barcode: "7649990122601", name: "Quick Cart Boneless Saltfish 454g", brand: "Quick Cart",
            category: "Meat", description: "Boneless salted codfish for ackee and saltfish.",
            price: 175000, aisle: "7", bay: 7, shelf: "C", onHand: 116, minSupply: 18),
        // MARK: Aisle 8 - Deli (chilled)
        DemoProduct(
            sku: "QC-0064", barcode: "0037600068741", name: "Hormel Natural Choice Smoked Ham 198g", brand: "Hormel",
            category: "Deli", description: "Sliced smoked deli ham.",
            price: 98000, aisle: "8", bay: 1, shelf: "B", onHand: 38, minSupply: 19),
        DemoProduct(
            sku: "QC-0065", barcode: "0037600070119", name: "Hormel Pepperoni 170g", brand: "Hormel",
            category: "Deli", description: "Sliced pepperoni for pizza and snacks.",
            price: 92000, aisle: "8", bay: 2, shelf: "C", onHand: 36, minSupply: 13),
        DemoProduct(
            sku: "QC-0066", barcode: "7640012023241", name: "Grace Chicken Franks 454g", brand: "Grace",
            category: "Deli", description: "Smoked chicken frankfurters.",
            price: 54000, aisle: "8", bay: 3, shelf: "D", onHand: 77, minSupply: 16),
        DemoProduct(
            sku: "QC-0067", barcode: "7649990123974", name: "Quick Cart Coleslaw 454g", brand: "Quick Cart",
            category: "Deli", description: "Creamy coleslaw made fresh daily.",
            price: 42000, aisle: "8", bay: 4, shelf: "A", onHand: 21, minSupply: 12),
        DemoProduct(
            sku: "QC-0068", barcode: "7649990125343", name: "Quick Cart Potato Salad 454g", brand: "Quick Cart",
            category: "Deli", description: "Classic Jamaican-style potato salad with beetroot.",
            price: 48000, aisle: "8", bay: 5, shelf: "E", onHand: 102, minSupply: 14),
        // MARK: Aisle 9 - Frozen foods (frozen)
        DemoProduct(
            sku: "QC-0069", barcode: "7640174020515", name: "Juici Patties Beef Patties 4-pack", brand: "Juici Patties",
            category: "Frozen", description: "Spicy Jamaican beef patties, bake from frozen.",
            price: 88000, aisle: "9", bay: 1, shelf: "B", onHand: 101, minSupply: 20),
        DemoProduct(
            sku: "QC-0070", barcode: "7640174021888", name: "Juici Patties Chicken Patties 4-pack", brand: "Juici Patties",
            category: "Frozen", description: "Curried chicken patties, bake from frozen.",
            price: 92000, aisle: "9", bay: 2, shelf: "C", onHand: 87, minSupply: 19),
        DemoProduct(
            sku: "QC-0071", barcode: "7640153020949", name: "Best Dressed Chicken Nuggets 907g", brand: "Best Dressed",
            category: "Frozen", description: "Crispy breaded chicken nuggets.",
            price: 135000, aisle: "9", bay: 3, shelf: "D", onHand: 115, minSupply: 10),
        DemoProduct(
            sku: "QC-0072", barcode: "0055773086409", name: "McCain Straight Cut Fries 1kg", brand: "McCain",
            category: "Frozen", description: "Straight cut oven and fryer chips.",
            price: 78000, aisle: "9", bay: 4, shelf: "A", onHand: 48, minSupply: 12),
        DemoProduct(
            sku: "QC-0073", barcode: "0014500056375", name: "Birds Eye Mixed Vegetables 454g", brand: "Birds Eye",
            category: "Frozen", description: "Frozen carrots, peas, corn and green beans.",
            price: 52000, aisle: "9", bay: 5, shelf: "E", onHand: 14, minSupply: 10),
        DemoProduct(
            sku: "QC-0074", barcode: "7640181021284", name: "Kremi Grape Nut Ice Cream 2L", brand: "Kremi",
            category: "Frozen", description: "Jamaica's favourite grape nut ice cream.",
            price: 125000, aisle: "9", bay: 6, shelf: "B", onHand: 18, minSupply: 8),
        DemoProduct(
            sku: "QC-0075", barcode: "7649990126715", name: "Quick Cart Red Snapper 907g", brand: "Quick Cart",
            category: "Frozen", description: "Whole scaled red snapper for escovitch or steaming.",
            price: 240000, aisle: "9", bay: 7, shelf: "C", onHand: 98, minSupply: 7),
        // MARK: Aisle 10 - Beverages (ambient)
        DemoProduct(
            sku: "QC-0076", barcode: "7640195022826", name: "Ting Grapefruit Soda 600ml", brand: "Ting",
            category: "Beverages", description: "Sparkling Jamaican grapefruit soda.",
            price: 16000, aisle: "10", bay: 1, shelf: "B", onHand: 6, minSupply: 20),
        DemoProduct(
            sku: "QC-0077", barcode: "7640202023594", name: "D&G Kola Champagne 330ml", brand: "D&G",
            category: "Beverages", description: "Sweet cream-soda style Jamaican kola.",
            price: 12000, aisle: "10", bay: 2, shelf: "C", onHand: 50, minSupply: 20),
        DemoProduct(
            sku: "QC-0078", barcode: "7640219025468", name: "Wata Purified Water 1.5L", brand: "Wisynco",
            category: "Beverages", description: "Purified drinking water.",
            price: 14000, aisle: "10", bay: 3, shelf: "D", onHand: 31, minSupply: 8),
        DemoProduct(
            sku: "QC-0079", barcode: "7640226026236", name: "Tropical Rhythms Pineapple Ginger 473ml", brand: "Tropical Rhythms",
            category: "Beverages", description: "Pineapple and ginger juice drink.",
            price: 18000, aisle: "10", bay: 4, shelf: "A", onHand: 61, minSupply: 13),
        DemoProduct(
            sku: "QC-0080", barcode: "7640012024613", name: "Grace Coconut Water 500ml", brand: "Grace",
            category: "Beverages", description: "Pure Jamaican coconut water.",
            price: 24000, aisle: "10", bay: 5, shelf: "E", onHand: 93, minSupply: 20),
        DemoProduct(
            sku: "QC-0081", barcode: "7613035005228", name: "Nestle Supligen Vanilla 315ml", brand: "Nestle",
            category: "Beverages", description: "Ready-to-drink vanilla nutritional supplement.",
            price: 26000, aisle: "10", bay: 6, shelf: "B", onHand: 35, minSupply: 17),
        DemoProduct(
            sku: "QC-0082", barcode: "7613035006591", name: "Nestle Milo 400g", brand: "Nestle",
            category: "Beverages", description: "Chocolate malt drink powder.",
            price: 98000, aisle: "10", bay: 7, shelf: "C", onHand: 30, minSupply: 10),
        DemoProduct(
            sku: "QC-0083", barcode: "7640137017811", name: "Lasco Food Drink Vanilla 400g", brand: "Lasco",
            category: "Beverages", description: "Vanilla soy food drink powder.",
            price: 72000, aisle: "10", bay: 8, shelf: "D", onHand: 120, minSupply: 9),
        DemoProduct(
            sku: "QC-0084", barcode: "7640137019181", name: "Lasco Instant Milk Powder 400g", brand: "Lasco",
            category: "Beverages", description: "Instant full cream milk powder.",
            price: 88000, aisle: "10", bay: 1, shelf: "A", onHand: 42, minSupply: 17),
        DemoProduct(
            sku: "QC-0085", barcode: "7640233027004", name: "Jablum Blue Mountain Coffee Ground 227g", brand: "Jablum",
            category: "Beverages", description: "100% Jamaica Blue Mountain ground coffee.",
            price: 385000, aisle: "10", bay: 2, shelf: "E", onHand: 19, minSupply: 12),
        // MARK: Aisle 11 - Snacks & breakfast (ambient)
        DemoProduct(
            sku: "QC-0086", barcode: "7640041005881", name: "Excelsior Water Crackers 336g", brand: "Excelsior",
            category: "Snacks", description: "Crisp Jamaican water crackers.",
            price: 38000, aisle: "11", bay: 1, shelf: "B", onHand: 8, minSupply: 10),
        DemoProduct(
            sku: "QC-0087", barcode: "7640041007250", name: "Excelsior Cream Crackers 300g", brand: "Excelsior",
            category: "Snacks", description: "Light, flaky cream crackers.",
            price: 34000, aisle: "11", bay: 2, shelf: "C", onHand: 62, minSupply: 12),
        DemoProduct(
            sku: "QC-0088", barcode: "7640041008622", name: "Excelsior Coconut Cookies 200g", brand: "Excelsior",
            category: "Snacks", description: "Crunchy coconut cookies.",
            price: 24000, aisle: "11", bay: 3, shelf: "D", onHand: 117, minSupply: 16),
        DemoProduct(
            sku: "QC-0089", barcode: "7640240027776", name: "Holiday Cheese Trix 70g", brand: "Holiday",
            category: "Snacks", description: "Cheesy corn puff snack.",
            price: 9000, aisle: "11", bay: 4, shelf: "A", onHand: 83, minSupply: 19),
        DemoProduct(
            sku: "QC-0090", barcode: "7640257029640", name: "Chippies Banana Chips 100g", brand: "Chippies",
            category: "Snacks", description: "Salted green banana chips.",
            price: 14000, aisle: "11", bay: 5, shelf: "E", onHand: 115, minSupply: 10),
        DemoProduct(
            sku: "QC-0091", barcode: "0038000001376", name: "Kellogg's Corn Flakes 500g", brand: "Kellogg's",
            category: "Breakfast", description: "Toasted corn flakes breakfast cereal.",
            price: 98000, aisle: "11", bay: 6, shelf: "B", onHand: 71, minSupply: 7),
        DemoProduct(
            sku: "QC-0092", barcode: "7640012025986", name: "Grace Peanut Butter 340g", brand: "Grace",
            category: "Breakfast", description: "Smooth peanut butter.",
            price: 62000, aisle: "11", bay: 7, shelf: "C", onHand: 40, minSupply: 6),
        // MARK: Aisle 12 - Household & personal care (ambient)
        DemoProduct(
            sku: "QC-0093", barcode: "0037000001379", name: "Tide Original Powder Detergent 1.8kg", brand: "Tide",
            category: "Household", description: "Powder laundry detergent.",
            price: 165000, aisle: "12", bay: 1, shelf: "B", onHand: 38, minSupply: 17),
        DemoProduct(
            sku: "QC-0094", barcode: "7509546061436", name: "Fab Lemon Laundry Detergent 1kg", brand: "Fab",
            category: "Household", description: "Lemon-fresh laundry powder.",
            price: 72000, aisle: "12", bay: 2, shelf: "C", onHand: 30, minSupply: 8),
        DemoProduct(
            sku: "QC-0095", barcode: "0044600067377", name: "Clorox Regular Bleach 3.78L", brand: "Clorox",
            category: "Household", description: "Disinfecting household bleach.",
            price: 98000, aisle: "12", bay: 3, shelf: "D", onHand: 33, minSupply: 7),
        DemoProduct(
            sku: "QC-0096", barcode: "7501035005228", name: "Axion Lemon Dishwashing Paste 425g", brand: "Axion",
            category: "Household", description: "Grease-cutting dishwashing paste.",
            price: 38000, aisle: "12", bay: 4, shelf: "A", onHand: 120, minSupply: 8),
        DemoProduct(
            sku: "QC-0097", barcode: "0030772086292", name: "Charmin Ultra Soft Toilet Paper 12 Rolls", brand: "Charmin",
            category: "Household", description: "Soft double-roll toilet tissue.",
            price: 185000, aisle: "12", bay: 5, shelf: "E", onHand: 105, minSupply: 18),
        DemoProduct(
            sku: "QC-0098", barcode: "0035000001375", name: "Colgate Total Toothpaste 120ml", brand: "Colgate",
            category: "Personal care", description: "Whole-mouth protection toothpaste.",
            price: 62000, aisle: "12", bay: 6, shelf: "B", onHand: 5, minSupply: 5),
        DemoProduct(
            sku: "QC-0099", barcode: "0035000002747", name: "Colgate Triple Action Toothpaste 100ml", brand: "Colgate",
            category: "Personal care", description: "Fresh mint toothpaste.",
            price: 38000, aisle: "12", bay: 7, shelf: "C", onHand: 64, minSupply: 9),
        DemoProduct(
            sku: "QC-0100", barcode: "7891024004012", name: "Protex Herbal Soap 110g", brand: "Protex",
            category: "Personal care", description: "Antibacterial bar soap.",
            price: 22000, aisle: "12", bay: 8, shelf: "D", onHand: 113, minSupply: 13),
        DemoProduct(
            sku: "QC-0101", barcode: "0037003001703", name: "Head & Shoulders Classic Clean Shampoo 400ml", brand: "Head & Shoulders",
            category: "Personal care", description: "Anti-dandruff shampoo.",
            price: 115000, aisle: "12", bay: 1, shelf: "A", onHand: 17, minSupply: 12),
    ]
}

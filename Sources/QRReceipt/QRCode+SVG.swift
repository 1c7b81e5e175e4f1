extension QRCode {
    /// Renders the symbol as SVG: a white background and the dark modules as one `<path>`.
    ///
    /// The view box is in modules (symbol plus the 4-module quiet zone on each side) and
    /// `shape-rendering="crispEdges"` keeps module edges sharp at any print size.
    /// - Parameter moduleSize: the `width`/`height` attributes, in CSS pixels per module.
    public func svg(moduleSize: Int = 8) -> String {
        let side = size + 2 * Self.quietZone
        var path = ""
        path.reserveCapacity(size * size)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard modules[y * size + x] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, modules[y * size + x] { x += 1 }
                let run = x - start
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(run)v1h-\(run)z"
            }
        }
        let pixels = side * moduleSize
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>

            """
    }
}

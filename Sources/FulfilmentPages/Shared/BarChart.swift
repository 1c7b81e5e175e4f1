import Foundation

/// A bar chart drawn on the server as SVG (issue 46): readable without script, scaled to any
/// width (the bars stretch; no text is drawn inside, so none is squeezed at 360 px: the labels
/// are HTML around it, and each bar names its own figure as a tooltip). The numbers themselves
/// are in the table the page puts beside it, for screen readers and anyone who wants them exact.
struct BarChart {
    struct Bar {
        /// What the bar says when pointed at: "Mon 3 Nov: 12 orders, JMD 300.00".
        var title: String
        var value: Int64
    }

    var id: String
    /// What the chart shows, for its accessible name: "Sales per day".
    var title: String
    var bars: [Bar]
    /// Under the chart's left and right ends (the first and last bars' labels).
    var first: String
    var last: String
    /// The top of the scale, in words: "Highest: JMD 1,200.00".
    var highest: String

    /// The drawing's own units; the page stretches it to its width.
    static let width = 1000
    static let height = 200

    var svg: HTML {
        let top = max(bars.map(\.value).max() ?? 0, 1)
        let slot = Double(Self.width) / Double(max(bars.count, 1))
        let gap = slot > 6 ? slot * 0.15 : 0
        let rects = bars.enumerated().map { index, bar -> HTML in
            let height = Double(Self.height) * Double(max(bar.value, 0)) / Double(top)
            let x = Double(index) * slot + gap / 2
            return """
                <rect x="\(Self.number(x))" y="\(Self.number(Double(Self.height) - height))" width="\(Self.number(slot - gap))" height="\(Self.number(height))"><title>\(bar.title)</title></rect>
                """
        }
        return """
            <figure class="chart" id="\(id)">
            <p class="chart-top">\(highest)</p>
            <svg viewBox="0 0 \(Self.width) \(Self.height)" preserveAspectRatio="none" role="img" aria-labelledby="\(id)-title" focusable="false">
            <title id="\(id)-title">\(title)</title>
            <line x1="0" y1="0" x2="\(Self.width)" y2="0" class="grid" vector-effect="non-scaling-stroke"/>
            <line x1="0" y1="\(Self.height / 2)" x2="\(Self.width)" y2="\(Self.height / 2)" class="grid" vector-effect="non-scaling-stroke"/>
            \(HTML.join(rects))
            <line x1="0" y1="\(Self.height)" x2="\(Self.width)" y2="\(Self.height)" class="axis" vector-effect="non-scaling-stroke"/>
            </svg>
            <figcaption><span>\(first)</span><span>\(title)</span><span>\(last)</span></figcaption>
            </figure>
            """
    }

    /// A coordinate with two decimals at most: short markup for a year of bars.
    private static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.2f", rounded)
    }
}

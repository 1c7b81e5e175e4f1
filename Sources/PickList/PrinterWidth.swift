/// The plain-text sheet widths the store's printers take.
public enum PrinterWidth: Int, CaseIterable, Hashable, Sendable {
    /// 58 mm / 80 mm receipt printers in Font A.
    case receipt42 = 42
    /// Line printers and monospaced A4.
    case wide80 = 80

    /// Number of columns; no line of the sheet is wider.
    public var columns: Int { rawValue }
}

/// Comparing secrets a client presents (the metrics token, a form's anti-forgery token, a
/// sign-in's state) in a time that depends on their length only, never on where they first
/// differ, so an answer's timing does not give a secret away byte by byte.
package enum ConstantTime {
    package static func equal(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        return x.count == y.count && zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

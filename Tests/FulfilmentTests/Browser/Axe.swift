import Foundation
import Testing

/// axe-core, the accessibility rule engine Deque maintains, run inside a page in Chromium: its
/// script (`AXE_SCRIPT`, which `scripts/install-axe` puts under `.build` from PyPI's
/// `axe-selenium-python`, and `scripts/test` sets) is injected over WebDriver into the page as
/// it is, and `axe.run` checks the whole document against its rules (WCAG 2.x A and AA, and its
/// best practices), with the page's real layout and colours.
enum Axe {
    /// One rule the page breaks, with every element that breaks it.
    struct Violation: Decodable, Sendable {
        var id: String
        /// axe's own scale: minor, moderate, serious or critical.
        var impact: String
        var help: String
        var helpUrl: String
        var nodes: [Node]

        /// A serious or critical violation: one that stops or badly hinders someone.
        var blocks: Bool { impact == "serious" || impact == "critical" }
    }

    /// An element that breaks a rule: its CSS selector, the start of its HTML, and what axe says
    /// to fix.
    struct Node: Decodable, Sendable {
        var target: String
        var html: String
        var summary: String
    }

    /// What one run found: the rules broken, and where axe could not decide by itself
    /// (`incomplete`: text over an image, a frame it cannot enter), for a person to look at.
    struct Audit: Decodable, Sendable {
        var violations: [Violation]
        var review: [Violation]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The engine's script, read once.
    private static let script: Result<String, Failure> = {
        guard let path = ProcessInfo.processInfo.environment["AXE_SCRIPT"], !path.isEmpty else {
            return .failure(
                Failure(description: "AXE_SCRIPT is not set: run the tests with scripts/test (it installs axe-core with scripts/install-axe)"))
        }
        guard let source = try? String(contentsOfFile: path, encoding: .utf8), source.contains("axe") else {
            return .failure(Failure(description: "AXE_SCRIPT=\(path) is not axe-core's script: run scripts/install-axe"))
        }
        return .success(source)
    }()

    /// The engine's script, or why it is not there.
    static func source() throws -> String { try script.get() }

    /// Runs every rule on the page the browser shows and returns what it breaks, of any impact,
    /// and what it could not decide.
    /// The run is started, then its result is polled, so a slow page on a loaded machine waits
    /// as long as it needs rather than running into WebDriver's 30-second script timeout.
    static func run(in browser: WebDriver) async throws -> Audit {
        let source = try source()
        if try await browser.script("return typeof window.axe === 'object' && typeof window.axe.run === 'function'") as? Bool != true {
            _ = try await browser.script(source)
        }
        _ = try await browser.script(
            """
            window.__axeAudit = null;
            function found(rules) {
              return rules.map(function (v) {
                return { id: v.id, impact: v.impact || 'unknown', help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map(function (n) {
                  return {
                    target: n.target.map(function (t) { return Array.isArray(t) ? t.join(' >>> ') : String(t); }).join(' '),
                    html: String(n.html || '').replace(/\\s+/g, ' ').slice(0, 160),
                    summary: String(n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300)
                  };
                }) };
              });
            }
            axe.run(document, { resultTypes: ['violations', 'incomplete'] }).then(function (results) {
              window.__axeAudit = JSON.stringify({ violations: found(results.violations), review: found(results.incomplete) });
            }, function (error) {
              window.__axeAudit = JSON.stringify({ error: String(error && error.message || error) });
            });
            return true;
            """)
        var answer: String?
        try await browser.waitFor("axe-core's audit", attempts: 1200) {
            answer = try await browser.script("return window.__axeAudit") as? String
            return answer != nil
        }
        let data = Data((answer ?? "").utf8)
        if let error = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] {
            throw Failure(description: "axe.run failed: \(error)")
        }
        return try JSONDecoder().decode(Audit.self, from: data)
    }

    /// The violations as lines a person reads: rule, impact, how many elements, which, what the
    /// first one is and what axe says of it.
    static func describe(_ violations: [Violation]) -> String {
        violations.map { violation in
            let targets = violation.nodes.prefix(8).map(\.target).joined(separator: ", ")
            let more = violation.nodes.count > 8 ? ", and \(violation.nodes.count - 8) more" : ""
            let first = violation.nodes.first.map { "e.g. \($0.html): \($0.summary)" } ?? ""
            return "\(violation.id) (\(violation.impact)) ×\(violation.nodes.count): \(violation.help); at \(targets)\(more); \(first) "
                + "(\(violation.helpUrl))"
        }.joined(separator: "\n  ")
    }
}

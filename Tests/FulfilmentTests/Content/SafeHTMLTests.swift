import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A writer's Markdown becomes safe HTML: the allow-list against the classic XSS vectors")
struct SafeHTMLTests {
    /// From OWASP's XSS filter evasion cheat sheet and its usual companions: each must come out
    /// with no script, no handler, no style, no dangerous link and no image from elsewhere.
    static let vectors: [String] = [
        "<script>alert('XSS')</script>",
        "<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>",
        "<IMG SRC=\"javascript:alert('XSS');\">",
        "<IMG SRC=javascript:alert('XSS')>",
        "<IMG SRC=JaVaScRiPt:alert('XSS')>",
        "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
        "<a onmouseover=\"alert(document.cookie)\">xxs link</a>",
        "<a onmouseover=alert(document.cookie)>xxs link</a>",
        "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\"\\>",
        "<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>",
        "<IMG SRC=# onmouseover=\"alert('xxs')\">",
        "<IMG SRC= onmouseover=\"alert('xxs')\">",
        "<IMG onmouseover=\"alert('xxs')\">",
        "<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
        "<img src=x onerror=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097\">",
        "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
        "<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058>",
        "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74>",
        "<IMG SRC=\"jav\tascript:alert('XSS');\">",
        "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
        "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
        "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
        "<SCRIPT/XSS SRC=\"http://xss.example/xss.js\"></SCRIPT>",
        "<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
        "<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
        "<SCRIPT SRC=http://xss.example/xss.js?< B >",
        "<IMG SRC=\"`<javascript:alert>`('XSS')\"",
        "<iframe src=http://xss.example/scriptlet.html <",
        "</TITLE><SCRIPT>alert(\"XSS\");</SCRIPT>",
        "<INPUT TYPE=\"IMAGE\" SRC=\"javascript:alert('XSS');\">",
        "<BODY BACKGROUND=\"javascript:alert('XSS')\">",
        "<svg/onload=alert('XSS')>",
        "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
        "<IMG DYNSRC=\"javascript:alert('XSS')\">",
        "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
        "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
        "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
        "<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
        "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
        "<OBJECT TYPE=\"text/x-scriptlet\" DATA=\"http://xss.example/scriptlet.html\"></OBJECT>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
        "<a href=\"&#1;javascript:alert(1)\">x</a>",
        "<a href=\"  JAVASCRIPT:alert(1)\">x</a>",
        "<a href=\"java\u{0}script:alert(1)\">x</a>",
        "<BASE HREF=\"javascript:alert('XSS');//\">",
        "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
        "<img src=\"//xss.example/x.png\">",
        "<img src=\"/\\xss.example/x.png\">",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](data:text/html,<script>alert(1)</script>)",
        "[click](vbscript:msgbox(1))",
        "[x](\" onmouseover=\"alert(1))",
        "![img](javascript:alert(1))",
        "![img](https://xss.example/tracker.png)",
        "![img](x\" onerror=\"alert(1))",
        "<details open ontoggle=alert(1)>",
        "`<script>alert(1)</script>`",
        "    <script>alert(1)</script>",
    ]

    /// What must never appear in a page from a writer: checked on the lowercased output with
    /// plain text searches, independently of the sanitiser's own tag reader.
    static func problems(_ html: String) -> [String] {
        let lower = html.lowercased()
        var found: [String] = []
        for tag in [
            "<script", "<iframe", "<object", "<embed", "<svg", "<style", "<math", "<link", "<meta", "<base", "<form", "<input", "<body", "<div",
            "<details", "<title",
        ]
        where lower.contains(tag) {
            found.append(tag)
        }
        if lower.range(of: #"<[^>]*\son[a-z]+\s*="#, options: .regularExpression) != nil { found.append("event handler") }
        if lower.range(of: #"<[^>]*\sstyle\s*="#, options: .regularExpression) != nil { found.append("style attribute") }
        for scheme in ["javascript:", "vbscript:", "data:"] where lower.range(of: #"<[^>]*=\s*"[^"]*"# + scheme, options: .regularExpression) != nil {
            found.append(scheme)
        }
        // Only inside tags: a writer's text may say src="..." once its < is escaped.
        for match in lower.matches(of: /<[a-z][^>]*\ssrc="([^"]*)"/)
        where !match.1.hasPrefix("/") || match.1.hasPrefix("//") || match.1.hasPrefix("/\\") {
            found.append("image from elsewhere: \(match.1)")
        }
        for match in lower.matches(of: /<[a-z][^>]*\shref="([^"]*)"/) {
            let href = String(match.1)
            let ok =
                href.hasPrefix("http://") || href.hasPrefix("https://") || href.hasPrefix("mailto:") || href.hasPrefix("#")
                || (href.hasPrefix("/") && !href.hasPrefix("//"))
            if !ok { found.append("link: \(href)") }
        }
        return found
    }

    @Test("at least 30 vectors, each rendered from Markdown and each sanitised as raw HTML, come out safe")
    func vectorsAreSafe() {
        #expect(Self.vectors.count >= 30)
        for vector in Self.vectors {
            let rendered = Markdown.html(vector)
            #expect(Self.problems(rendered).isEmpty, "Markdown \(vector) → \(rendered): \(Self.problems(rendered))")
            let sanitised = SafeHTML.sanitize(vector)
            #expect(Self.problems(sanitised).isEmpty, "HTML \(vector) → \(sanitised): \(Self.problems(sanitised))")
        }
    }

    @Test("the checker itself catches what it looks for (so a pass above means something)")
    func checkerCatches() {
        #expect(!Self.problems("<script>alert(1)</script>").isEmpty)
        #expect(!Self.problems("<img src=\"https://x.example/a.png\">").isEmpty)
        #expect(!Self.problems("<a href=\"javascript:alert(1)\">x</a>").isEmpty)
        #expect(!Self.problems("<p onclick=\"x()\">x</p>").isEmpty)
        #expect(!Self.problems("<p style=\"color:red\">x</p>").isEmpty)
    }

    @Test("what a writer means survives: emphasis, lists, headings, code, safe links and this service's images, and text with < and &")
    func meaningSurvives() {
        let html = Markdown.html(
            """
            # Ackee and saltfish

            Soak the **saltfish** overnight; *don't* skip it. Cook < 20 min & serve.

            1. Boil
            2. Flake

            - [The store](https://quickcart.example/kingston) and [ackee](/v1/products/1)
            - ![Ackee](/v1/products/1/image)

            `salt & pepper`
            """)
        #expect(html.contains("<h1>Ackee and saltfish</h1>"), "\(html)")
        #expect(html.contains("<strong>saltfish</strong>") && html.contains("<em>don't</em>"))
        #expect(html.contains("<ol><li>Boil</li><li>Flake</li></ol>"))
        #expect(html.contains("<a href=\"https://quickcart.example/kingston\" rel=\"nofollow noopener\">The store</a>"))
        #expect(html.contains("<a href=\"/v1/products/1\" rel=\"nofollow noopener\">ackee</a>"))
        #expect(html.contains("<img src=\"/v1/products/1/image\" alt=\"Ackee\">"))
        #expect(html.contains("Cook &lt; 20 min &amp; serve."))
        #expect(html.contains("<code>salt &amp; pepper</code>"))
    }
}

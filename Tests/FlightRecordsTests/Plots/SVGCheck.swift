/// A tiny structural check of an SVG document: the root element, balanced tags in order, and the
/// elements and attributes the tests look at. Not a full XML parser: enough to catch unclosed or
/// misnested tags and unescaped `<`/`&` in text.
struct SVGCheck {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// Text directly inside the element (for `<text>`), as written (not unescaped).
        var text: String
        /// Index of the enclosing element in `elements` (nil for the root).
        var parent: Int?
    }

    private(set) var elements: [Element] = []
    private(set) var problems: [String] = []

    init(_ svg: String) {
        let chars = Array(svg.unicodeScalars)
        var i = 0
        var stack: [Int] = [] // indices into `elements`
        var sawRoot = false
        while i < chars.count {
            if chars[i] == "<" {
                var j = i + 1
                var inQuote = false
                while j < chars.count, inQuote || chars[j] != ">" {
                    if chars[j] == "\"" { inQuote.toggle() }
                    j += 1
                }
                guard j < chars.count else { problems.append("unterminated tag at \(i)"); break }
                let body = String(String.UnicodeScalarView(chars[(i + 1)..<j]))
                if body.hasPrefix("/") {
                    let name = String(body.dropFirst()).trimmingSpaces
                    if let top = stack.popLast() {
                        if elements[top].name != name { problems.append("</\(name)> closes <\(elements[top].name)>") }
                    } else {
                        problems.append("</\(name)> without an open tag")
                    }
                } else if body.hasPrefix("?") || body.hasPrefix("!") {
                    // declaration or comment
                } else {
                    let selfClosing = body.hasSuffix("/")
                    let content = selfClosing ? String(body.dropLast()) : body
                    var element = Self.parseTag(content)
                    element.parent = stack.last
                    if !sawRoot {
                        sawRoot = true
                        if element.name != "svg" { problems.append("root element is <\(element.name)>") }
                    } else if stack.isEmpty {
                        problems.append("<\(element.name)> after the root closed")
                    }
                    elements.append(element)
                    if !selfClosing { stack.append(elements.count - 1) }
                }
                i = j + 1
            } else {
                if chars[i] == "&" {
                    let rest = String(String.UnicodeScalarView(chars[i..<min(i + 7, chars.count)]))
                    if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(where: { rest.hasPrefix($0) }) {
                        problems.append("bare & at \(i)")
                    }
                }
                if let top = stack.last { elements[top].text.unicodeScalars.append(chars[i]) }
                i += 1
            }
        }
        if !stack.isEmpty { problems.append("unclosed: \(stack.map { elements[$0].name })") }
        if !sawRoot { problems.append("no root element") }
    }

    private static func parseTag(_ content: String) -> Element {
        let scalars = Array(content.unicodeScalars)
        var i = 0
        var name = ""
        while i < scalars.count, scalars[i] != " ", scalars[i] != "\n" { name.unicodeScalars.append(scalars[i]); i += 1 }
        var attributes: [String: String] = [:]
        while i < scalars.count {
            while i < scalars.count, scalars[i] == " " || scalars[i] == "\n" { i += 1 }
            var key = ""
            while i < scalars.count, scalars[i] != "=", scalars[i] != " " { key.unicodeScalars.append(scalars[i]); i += 1 }
            guard i < scalars.count, scalars[i] == "=" else { break }
            i += 2 // ="
            var value = ""
            while i < scalars.count, scalars[i] != "\"" { value.unicodeScalars.append(scalars[i]); i += 1 }
            i += 1
            if !key.isEmpty { attributes[key] = value }
        }
        return Element(name: name, attributes: attributes, text: "", parent: nil)
    }

    var isWellFormed: Bool { problems.isEmpty }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The elements directly inside the first element whose `id` is `id`.
    func children(ofID id: String) -> [Element] {
        guard let index = elements.firstIndex(where: { $0.attributes["id"] == id }) else { return [] }
        return elements.filter { $0.parent == index }
    }

    /// The (x, y) pairs of a polyline's `points`.
    static func points(of polyline: Element) -> [(x: Double, y: Double)] {
        (polyline.attributes["points"] ?? "").split(separator: " ").compactMap { pair in
            let xy = pair.split(separator: ",")
            guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]) else { return nil }
            return (x, y)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\n" { s = s.dropFirst() }
        while s.last == " " || s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}

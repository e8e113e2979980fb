/// A deterministic random source (SplitMix64) that generates unified payloads as JSON text: valid ones that cover every field of SPEC section 3, with
/// values drawn to hit every rule (good and bad strings, numbers, colors, URLs, escapes), random
/// white space, and byte mutations of them.
struct PayloadGenerator {
    var state: UInt64
    /// When set, values are drawn from the valid ones only and no unknown key is added, so that most
    /// payloads reach the emitters.
    var valid = false
    /// When set, every payload has `platform: {"web":true}` and a `web` section (SPEC 5.6). Off by
    /// default, so that the payloads the differential test draws stay those it recorded.
    var webSections = false
    /// When set, every payload has a `live_activity` section (SPEC 5.1.1). Off by default, for the same
    /// reason as ``webSections``.
    var liveActivitySections = false

    init(state: UInt64) { self.state = state }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    // MARK: values

    static let texts = [
        "Hello", "Order shipped", "é ü ñ", "😀 party", "\\u00e9t\\u00e9", "line\\nbreak", "tab\\there", "say \\\"hi\\\"",
        "back\\\\slash", "\\ud83d\\ude00", "\\/path", "\\u0001ctl", "\\u001F", "a/b~c", "e\\u0301", "x", "",
        String(repeating: "long text ", count: 8), String(repeating: "é", count: 71),
        String(repeating: "b", count: 601),
    ]
    static let urls = [
        "https://example.com/a.png", "http://cdn.example.com/x?y=1#z", "HTTPS://EXAMPLE.COM/", "myapp://book/1", "app:",
        "https://", "ftp://files.example.com/a.png", "not a url", "https://exa mple.com", "https://user@host:8080/p",
        "https://[::1]/x", "https://a.b/%zz", "https://a.b/%41", "mailto:a@b.c",
        "https:\\/\\/escaped.example.com\\/i.png", "", "https://shop.example.com:99999/p", "https://[v1.shop]/",
        "https://a.b:65535/x",
    ]
    static let colors = [
        "#FF5733", "ff5733", "#ff5733cc", "#FFF", "#GG0000", "#00000000", "123456", "#1234567", "\\u0023ABCDEF", "",
    ]
    static let numbers = [
        "0", "1", "-1", "1.50", "0.4", "1e2", "-0", "2147483647", "2147483648", "1e400", "12345678901234567890", "3.0",
        "14",
    ]

    static let validTexts = texts.filter { !$0.isEmpty }
    static let validURLs = [
        "https://example.com/a.png", "HTTPS://EXAMPLE.COM/", "https:\\/\\/escaped.example.com\\/i.png",
        "http://h/\\u00e9", "https://a.b:65535/x",
    ]
    static let validColors = ["#FF5733", "#a1b2c3", "#00000F"]
    static let validNumbers = ["0", "1", "0.4", "14", "1.50", "1e-1"]

    mutating func text() -> String { "\"" + pick(valid ? Self.validTexts : Self.texts) + "\"" }
    mutating func url() -> String { "\"" + pick(valid ? Self.validURLs : Self.urls) + "\"" }
    mutating func color() -> String { "\"" + pick(valid ? Self.validColors : Self.colors) + "\"" }
    mutating func number() -> String { pick(valid ? Self.validNumbers : Self.numbers) }
    /// `good` when generating valid payloads, else one of `choices`.
    mutating func either(_ good: String, _ choices: [String]) -> String { valid ? good : pick(choices) }
    mutating func bool() -> String { chance(50) ? "true" : "false" }

    /// Mostly the expected type, sometimes another type or null.
    mutating func maybeWrong(_ good: String) -> String {
        if valid { return good }
        switch below(20) {
        case 0: return "null"
        case 1: return number()
        case 2: return text()
        case 3: return "[]"
        case 4: return "{}"
        default: return good
        }
    }

    mutating func anyValue(depth: Int = 0) -> String {
        switch below(depth > 2 ? 5 : 7) {
        case 0: return "null"
        case 1: return bool()
        case 2: return number()
        case 3, 4: return text()
        case 5:
            var elements: [String] = []
            for _ in 0..<below(3) { elements.append(anyValue(depth: depth + 1)) }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            var members: [(String, String)] = []
            for _ in 0..<below(3) { members.append(("k\(below(5))", anyValue(depth: depth + 1))) }
            return object(members)
        }
    }

    /// The keys the generator adds only to be unknown.
    static let unknownNames: Set<String> = [
        "web", "colour", "extra", "caption", "border", "x", "alpha", "weight", "width", "padding", "icon", "unknown",
        "Message",
        "a~b/c", "\\u0069d", "ios_badges",
    ]

    mutating func ws() -> String { pick(["", "", "", " ", "\n", " \t "]) }

    mutating func object(_ members: [(String, String)]) -> String {
        var seen: Set<String> = []
        var parts: [String] = []
        for (name, value) in members
        where seen.insert(name).inserted && !(valid && Self.unknownNames.contains(name) && !isWebName(name)) {
            parts.append(ws() + "\"" + name + "\"" + ws() + ":" + ws() + value + ws())
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// Whether `name` is a known key of `web` (or `web` itself) when ``webSections`` is set.
    private func isWebName(_ name: String) -> Bool { webSections && (name == "web" || name == "icon") }

    /// Members with some of `names` (each with chance `percent`), values from `make`.
    mutating func some(_ names: [String], percent: Int, _ make: (inout Self, String) -> String) -> [(String, String)] {
        var members: [(String, String)] = []
        for name in names where chance(percent) { members.append((name, make(&self, name))) }
        return members
    }
}

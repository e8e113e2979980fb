/// A deterministic, realistic mix of unified payloads for benchmarks: mostly iOS+Android alerts of
/// ~550 bytes with custom data, some with actions, carousels and cards, a few invalid ones.
public enum PayloadMix {
    /// The kinds of payload in the mix, with their share in percent.
    public enum Kind: String, CaseIterable, Sendable {
        case alert, alertWithActions, carousel, card, invalid

        public var share: Int {
            switch self {
            case .alert: 55
            case .alertWithActions: 25
            case .carousel: 8
            case .card: 7
            case .invalid: 5
            }
        }
    }

    /// `count` payloads cycling through kinds by share, with varying text.
    public static func payloads(count: Int, kinds: [Kind] = Kind.allCases) -> [(kind: Kind, bytes: [UInt8])] {
        let schedule = schedule(of: kinds)
        return (0..<count).map { index in
            let kind = kind(at: index, in: schedule)
            return (kind, Array(payload(kind, index).utf8))
        }
    }

    /// Each of `kinds` repeated by its share: one period of the mix.
    public static func schedule(of kinds: [Kind] = Kind.allCases) -> [Kind] {
        kinds.flatMap { Array(repeating: $0, count: $0.share) }
    }

    /// The kind of payload number `index` of a mix with `schedule`.
    public static func kind(at index: Int, in schedule: [Kind]) -> Kind {
        schedule[(index &* 37) % schedule.count]
    }

    private static let words = ["flash", "sale", "order", "shipped", "today", "your", "basket", "deal", "é", "news"]

    private static func text(_ index: Int, words count: Int) -> String {
        (0..<count).map { words[(index &* 31 &+ $0 &* 7) % words.count] }.joined(separator: " ")
    }

    public static func payload(_ kind: Kind, _ index: Int) -> String {
        let common = """
            "id":"bench-\(index)","message":{"title":"\(text(index, words: 5))","body":"\(text(index + 1, words: 18))",\
            "priority":"\(index % 3 == 0 ? "high" : "normal")","ttl":\(3600 + index % 1000)},\
            "data":{"order_id":"ord-\(index)","amount":\(index % 500).50,"tags":["a","b"],"deep_link":"myapp://orders/\(index)"},\
            "collapse_id":"c-\(index % 97)"
            """
        switch kind {
        case .alert:
            return """
                {\(common),"custom":{"ios_badge":\(index % 9),"ios_sound":"default","ios_category":"ORDER",\
                "ios_mutable_content":true},"action":{"type":"url","value":"https://shop.example.com/o/\(index)"},\
                "thread_id":"orders"}
                """
        case .alertWithActions:
            return """
                {\(common),"custom":{"ios_badge":1,"ios_sound":"chime.caf"},\
                "actions":[{"type":"url","name":"View","value":"https://shop.example.com/o/\(index)"},\
                {"type":"dial","name":"Call","value":"+1 555 0100"}],"expandable":{"type":"text","value":"\(text(index, words: 12))"}}
                """
        case .carousel:
            return """
                {\(common),"carousel":{"mode":"manual","items":[{"image":"https://cdn.example.com/\(index)/1.jpg","text":"One"},\
                {"image":"https://cdn.example.com/\(index)/2.jpg","text":"Two"},{"image":"https://cdn.example.com/\(index)/3.jpg"}],\
                "colors":{"title":"#FF5733","background":"FFFFFF"}}}
                """
        case .card:
            return """
                {\(common),"card":{"size":"medium","campaign":"c\(index)","backdrop_color":"#332D2DF0",\
                "hero":{"height":0.4,"background":{"type":"image","url":"https://cdn.example.com/h\(index).png"}},\
                "body":{"background":{"type":"color","color":"#FFFFFF"},"content":{"text":"\(text(index, words: 8))","size":14}},\
                "actions":{"buttons":[{"content":{"text":"Yes"},"url":"https://shop.example.com/y"}]}}}
                """
        case .invalid:
            return """
                {\(common),"custom":{"ios_badge":-\(index % 9 + 1),"ios_sound":""},"actions":[]}
                """
        }
    }
}

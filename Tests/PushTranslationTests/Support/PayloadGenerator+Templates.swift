extension PayloadGenerator {
    mutating func carousel() -> String {
        var members = some(
            ["mode", "layout", "expanded_title", "expanded_body", "uri", "colors", "extra"], percent: 40
        ) { g, name in
            switch name {
            case "mode": g.maybeWrong(g.either("\"manual\"", ["\"auto\"", "\"manual\"", "\"fast\""]))
            case "layout": g.maybeWrong(g.either("\"filmstrip\"", ["\"default\"", "\"filmstrip\"", "\"grid\""]))
            case "uri": g.maybeWrong(g.url())
            case "colors":
                g.maybeWrong(
                    g.object(
                        g.some(["title", "body", "background", "border"], percent: 50) { g, _ in g.maybeWrong(g.color())
                        }))
            case "extra": "1"
            default: g.maybeWrong(g.text())
            }
        }
        if valid || chance(92) {
            var items: [String] = []
            for _ in 0..<(valid ? pick([2, 3, 4, 5]) : pick([1, 2, 3, 3, 4, 5, 6])) {
                var item = some(["text", "uri", "caption"], percent: 40) { g, name in
                    name == "uri" ? g.maybeWrong(g.url()) : g.maybeWrong(g.text())
                }
                if valid || chance(93) { item.append(("image", maybeWrong(url()))) }
                shuffle(&item)
                items.append(maybeWrong(object(item)))
            }
            members.append(("items", maybeWrong("[" + items.joined(separator: ",") + "]")))
        }
        shuffle(&members)
        return object(members)
    }

    mutating func card() -> String {
        var members = some(
            [
                "size", "corner_radius", "content_inset", "backdrop_color", "dismiss_color", "campaign", "hero", "body",
                "actions", "x",
            ],
            percent: 55
        ) { g, name in
            switch name {
            case "size": g.maybeWrong(g.either("\"large\"", ["\"small\"", "\"medium\"", "\"large\"", "\"huge\""]))
            case "corner_radius", "content_inset": g.maybeWrong(g.number())
            case "backdrop_color", "dismiss_color": g.maybeWrong(g.color())
            case "hero": g.maybeWrong(g.hero())
            case "body": g.maybeWrong(g.cardBody())
            case "actions": g.maybeWrong(g.cardActions())
            case "x": "null"
            default: g.maybeWrong(g.text())
            }
        }
        if valid || chance(85) { members.append(("size", pick(["\"small\"", "\"medium\"", "\"large\""]))) }
        shuffle(&members)
        return object(members)
    }

    mutating func background(allowsGIF: Bool = false) -> String {
        if valid {
            switch below(3) {
            case 0: return object([("type", "\"color\""), ("color", color())])
            case 1 where allowsGIF: return object([("url", url()), ("type", "\"gif\"")])
            default: return object([("type", "\"image\""), ("url", url())])
            }
        }
        var members = some(["url", "color", "alpha"], percent: 45) { g, name in
            switch name {
            case "url": g.maybeWrong(g.url())
            case "color": g.maybeWrong(g.color())
            default: "1"
            }
        }
        if chance(90) {
            members.append(("type", maybeWrong(pick(["\"image\"", "\"gif\"", "\"color\"", "\"video\""]))))
        }
        if chance(60) {
            members.removeAll { $0.0 == "url" || $0.0 == "color" }
            members.append(chance(50) ? ("url", url()) : ("color", color()))
        }
        shuffle(&members)
        return object(members)
    }

    mutating func styledText() -> String {
        var members = some(["color", "size", "align", "font", "weight"], percent: 40) { g, name in
            switch name {
            case "color": g.maybeWrong(g.color())
            case "size": g.maybeWrong(g.number())
            case "align": g.maybeWrong(g.either("\"center\"", ["\"left\"", "\"center\"", "\"right\"", "\"justify\""]))
            case "weight": "\"bold\""
            default: g.maybeWrong(g.text())
            }
        }
        if valid || chance(90) { members.append(("text", maybeWrong(text()))) }
        shuffle(&members)
        return object(members)
    }

    mutating func hero() -> String {
        var members = some(["height", "content", "content_align", "width"], percent: 45) { g, name in
            switch name {
            case "height": g.maybeWrong(g.number())
            case "content": g.maybeWrong(g.styledText())
            case "content_align":
                g.maybeWrong(g.either("\"bottom\"", ["\"top\"", "\"center\"", "\"bottom\"", "\"middle\""]))
            default: "1"
            }
        }
        if valid || chance(85) { members.append(("background", maybeWrong(background(allowsGIF: true)))) }
        shuffle(&members)
        return object(members)
    }

    mutating func cardBody() -> String {
        var members = some(["content", "padding"], percent: 50) { g, name in
            name == "content" ? g.maybeWrong(g.styledText()) : "1"
        }
        if valid || chance(85) { members.append(("background", maybeWrong(background()))) }
        shuffle(&members)
        return object(members)
    }

    mutating func cardActions() -> String {
        let names = [
            "style", "layout_style", "background", "height", "top_inset", "content_inset", "corner_radius", "buttons",
            "x",
        ]
        let members = some(names, percent: 45) { g, name in
            switch name {
            case "style": g.maybeWrong(g.either("\"detached\"", ["\"attached\"", "\"detached\"", "\"floating\""]))
            case "layout_style":
                g.maybeWrong(g.either("\"vertical\"", ["\"horizontal\"", "\"vertical\"", "\"diagonal\""]))
            case "background": g.maybeWrong(g.background())
            case "buttons": g.maybeWrong(g.cardButtons())
            case "x": "2"
            default: g.maybeWrong(g.number())
            }
        }
        return object(members)
    }

    mutating func cardButtons() -> String {
        var buttons: [String] = []
        for _ in 0..<below(4) {
            let button = some(
                ["background_color", "border_color", "border_width", "content", "url", "icon"], percent: 45
            ) { g, name in
                switch name {
                case "background_color", "border_color": g.maybeWrong(g.color())
                case "border_width": g.maybeWrong(g.number())
                case "content": g.maybeWrong(g.styledText())
                case "url": g.maybeWrong(g.url())
                default: "\"i\""
                }
            }
            buttons.append(maybeWrong(object(button)))
        }
        return "[" + buttons.joined(separator: ",") + "]"
    }
}

import PushModel

extension PayloadValidator {
    mutating func readCarousel(_ value: JSONValue, _ path: String) {
        givenFields.append(GivenField(path: path, use: .carousel))
        hasCarousel = true
        guard let object = context.object(value, path) else { return }
        var carousel = Carousel(items: [])
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            if member.value == .null && Self.carouselKeys.contains(member.name) { continue }
            switch member.name {
            case "items": carousel.items = readCarouselItems(member.value, memberPath())
            case "mode":
                carousel.mode = context.choice(member.value, memberPath(), Carousel.Mode.self, choices: ["auto", "manual"]) ?? .auto
            case "layout":
                carousel.layout =
                    context.choice(member.value, memberPath(), Carousel.Layout.self, choices: ["default", "filmstrip"]) ?? .default
            case "expanded_title": carousel.expandedTitle = context.string(member.value, memberPath())
            case "expanded_body": carousel.expandedBody = context.string(member.value, memberPath())
            case "uri": carousel.uri = readURI(member.value, memberPath())
            case "colors": readCarouselColors(member.value, memberPath(), into: &carousel)
            default: context.unknownField(memberPath(), in: "carousel")
            }
        }
        requireMember(object, "items", path, "a carousel needs 2 to 5 items, each with an image")
        notification.carousel = carousel
    }

    static let carouselKeys: Set<String> = ["items", "mode", "layout", "expanded_title", "expanded_body", "uri", "colors"]

    private mutating func readCarouselItems(_ value: JSONValue, _ path: String) -> [Carousel.Item] {
        guard let elements = context.array(value, path) else { return [] }
        if !(2...5).contains(elements.count) {
            context.error(.invalidItemCount, path, "a carousel needs 2 to 5 items, got \(elements.count)")
        }
        var items: [Carousel.Item] = []
        for (index, element) in elements.enumerated() {
            let itemPath = JSONPointer.appending(path, index)
            guard let object = context.object(element, itemPath) else { continue }
            var item = Carousel.Item(image: "")
            for member in object.members {
                func memberPath() -> String { JSONPointer.appending(itemPath, member.name) }
                if member.value == .null && ["image", "text", "uri"].contains(member.name) { continue }
                switch member.name {
                case "image": item.image = readImageURL(member.value, memberPath()) ?? ""
                case "text": item.text = context.string(member.value, memberPath())
                case "uri": item.uri = readURI(member.value, memberPath())
                default: context.unknownField(memberPath(), in: "a carousel item")
                }
            }
            requireMember(object, "image", itemPath, "a carousel item needs an image URL")
            items.append(item)
        }
        return items
    }

    private mutating func readCarouselColors(_ value: JSONValue, _ path: String, into carousel: inout Carousel) {
        guard let object = context.object(value, path) else { return }
        for member in object.members {
            func memberPath() -> String { JSONPointer.appending(path, member.name) }
            let target: WritableKeyPath<Carousel, String?>
            switch member.name {
            case "title": target = \.titleColor
            case "body": target = \.bodyColor
            case "background": target = \.backgroundColor
            default:
                context.unknownField(memberPath(), in: "carousel colors")
                continue
            }
            guard member.value != .null, let text = context.string(member.value, memberPath()) else { continue }
            if let color = ColorRules.adobeColor(text) {
                carousel[keyPath: target] = color
            } else {
                context.error(.invalidColor, memberPath(), "must be 6 hex digits, with or without #, such as FF5733")
            }
        }
    }

    /// A non-empty absolute URI with a scheme; `invalid_url` otherwise.
    mutating func readURI(_ value: JSONValue, _ path: String) -> String? {
        guard let text = context.string(value, path) else { return nil }
        guard URLRules.isAbsoluteURI(text) else {
            context.error(.invalidURL, path, "must be an absolute URI with a scheme, such as https://example.com/ or myapp://page")
            return nil
        }
        return text
    }

    /// A non-empty absolute http or https URL with a host; `invalid_url` otherwise.
    mutating func readImageURL(_ value: JSONValue, _ path: String) -> String? {
        guard let text = context.string(value, path) else { return nil }
        guard URLRules.isImageURL(text) else {
            context.error(.invalidURL, path, "an image must be an absolute http or https URL with a host")
            return nil
        }
        return text
    }
}

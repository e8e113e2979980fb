import PushModel

extension PayloadValidator {
    mutating func readCarousel(_ token: Int, _ path: @autoclosure () -> String) {
        let document = self.document
        givenUses.insert(.carousel)
        hasCarousel = true
        guard let object = context.object(token, path()) else { return }
        var carousel = Carousel(items: [])
        for (name, key, value) in document.members(object, keyedBy: CarouselKey.self) {
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .items: carousel.items = readCarouselItems(value, memberPath())
            case .mode:
                carousel.mode =
                    context.choice(value, memberPath(), Carousel.Mode.self, choices: ["auto", "manual"]) ?? .auto
            case .layout:
                carousel.layout =
                    context.choice(value, memberPath(), Carousel.Layout.self, choices: ["default", "filmstrip"])
                    ?? .default
            case .expanded_title: carousel.expandedTitle = context.string(value, memberPath())
            case .expanded_body: carousel.expandedBody = context.string(value, memberPath())
            case .uri: carousel.uri = readURI(value, memberPath())
            case .colors: readCarouselColors(value, memberPath(), into: &carousel)
            case nil: context.unknownField(memberPath(), in: "carousel")
            }
        }
        requireMember(object, "items", path(), "a carousel needs 2 to 5 items, each with an image")
        notification.carousel = carousel
    }

    private mutating func readCarouselItems(_ token: Int, _ path: @autoclosure () -> String) -> [Carousel.Item] {
        let document = self.document
        guard let array = context.array(token, path()) else { return [] }
        let count = document.count(array)
        if !(2...5).contains(count) {
            context.error(.invalidItemCount, path(), "a carousel needs 2 to 5 items, got \(count)")
        }
        var items: [Carousel.Item] = []
        items.reserveCapacity(min(count, 5))
        for (index, element) in document.elements(array).enumerated() {
            func itemPath() -> String { JSONPointer.appending(path(), index) }
            guard let object = context.object(element, itemPath()) else { continue }
            var item = Carousel.Item(image: InputText(start: 0, length: 0, isEscaped: false))
            var hasImage = false
            for (name, key, value) in document.members(object, keyedBy: CarouselItemKey.self) {
                if key != nil && document.isNull(value) { continue }
                func memberPath() -> String { JSONPointer.appending(itemPath(), document.string(name)) }
                switch key {
                case .image:
                    hasImage = true
                    if let image = readImageURL(value, memberPath()) { item.image = image }
                case .text: item.text = context.string(value, memberPath())
                case .uri: item.uri = readURI(value, memberPath())
                case nil: context.unknownField(memberPath(), in: "a carousel item")
                }
            }
            requireMember(hasImage, "image", itemPath(), "a carousel item needs an image URL")
            items.append(item)
        }
        return items
    }

    private mutating func readCarouselColors(
        _ token: Int, _ path: @autoclosure () -> String, into carousel: inout Carousel
    ) {
        let document = self.document
        guard let object = context.object(token, path()) else { return }
        for (name, key, value) in document.members(object, keyedBy: CarouselColorKey.self) {
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            guard let key else {
                context.unknownField(memberPath(), in: "carousel colors")
                continue
            }
            guard !document.isNull(value), let text = context.string(value, memberPath()) else { continue }
            guard let color = document.withDecodedBytes(text, ColorRules.adobeColor) else {
                context.error(.invalidColor, memberPath(), "must be 6 hex digits, with or without #, such as FF5733")
                continue
            }
            switch key {
            case .title: carousel.titleColor = color
            case .body: carousel.bodyColor = color
            case .background: carousel.backgroundColor = color
            }
        }
    }

    /// A non-empty absolute URI with a scheme; `invalid_url` otherwise.
    mutating func readURI(_ token: Int, _ path: @autoclosure () -> String) -> InputText? {
        let document = self.document
        guard let text = context.string(token, path()) else { return nil }
        guard document.withDecodedBytes(text, URLRules.isAbsoluteURI(bytes:)) else {
            context.error(
                .invalidURL, path(),
                "must be an absolute URI with a scheme, such as https://example.com/ or myapp://page")
            return nil
        }
        return text
    }

    /// A non-empty absolute http or https URL with a host; `invalid_url` otherwise.
    mutating func readImageURL(_ token: Int, _ path: @autoclosure () -> String) -> InputText? {
        let document = self.document
        guard let text = context.string(token, path()) else { return nil }
        guard document.withDecodedBytes(text, URLRules.isImageURL(bytes:)) else {
            context.error(.invalidURL, path(), "an image must be an absolute http or https URL with a host")
            return nil
        }
        return text
    }
}

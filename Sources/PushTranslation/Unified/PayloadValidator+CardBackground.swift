import PushModel

extension PayloadValidator {
    mutating func readBackground(_ token: Int, _ path: @autoclosure () -> String, allowsGIF: Bool) -> Card.Background? {
        let document = self.document
        guard let object = context.object(token, path()) else { return nil }
        func typePath() -> String { JSONPointer.appending(path(), "type") }
        // The type, matched on the decoded bytes (no string is made of it).
        var type: BackgroundType?
        if let typeValue = document.member(object, named: "type"), !document.isNull(typeValue),
            let text = context.string(typeValue, typePath())
        {
            let name: BackgroundType? =
                document.textEquals(text, "image")
                ? .image : document.textEquals(text, "gif") ? .gif : document.textEquals(text, "color") ? .color : nil
            if name == nil {
                context.error(.invalidValue, typePath(), "must be one of \"image\", \"gif\", \"color\"")
            } else if name == .gif && !allowsGIF {
                context.error(.invalidValue, typePath(), "a GIF background is only allowed in the hero; use \"image\"")
            } else {
                type = name
            }
        }
        requireMember(object, "type", path(), "a background needs a type: \"image\", \"gif\" or \"color\"")
        var url: InputText?
        var color: String?
        for (name, key, value) in document.members(object, keyedBy: BackgroundKey.self) {
            if key == .type { continue }
            if key != nil && document.isNull(value) { continue }
            func memberPath() -> String { JSONPointer.appending(path(), document.string(name)) }
            switch key {
            case .url where type != .color:
                url = readImageURL(value, memberPath())
            case .color where type != .image && type != .gif:
                color = readCardColor(value, memberPath())
            default:
                context.unknownField(memberPath(), in: "a \(type?.rawValue ?? "card") background")
            }
        }
        switch type {
        case .image, .gif:
            requireMember(object, "url", path(), "an \(type?.rawValue ?? "image") background needs a url")
            guard let url else { return nil }
            return type == .gif ? .gif(url: url) : .image(url: url)
        case .color:
            requireMember(object, "color", path(), "a color background needs a color, #RRGGBB or #RRGGBBAA")
            return color.map { .color($0) }
        case nil:
            return nil
        }
    }

    /// The `type` of a card background.
    private enum BackgroundType: String {
        case image, gif, color
    }
}

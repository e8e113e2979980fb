import PushModel

extension PayloadValidator {
    /// The largest `web.app_badge`: 2^53 - 1, the largest integer a browser's JavaScript number holds exactly.
    static let largestAppBadge: Int64 = 9_007_199_254_740_991

    /// Reads `web` (SPEC 5.6): every member's type and value, whatever the routing.
    mutating func readWeb(_ token: Int, _ path: String) {
        let document = self.document
        givenUses.insert(.web)
        guard let object = context.object(token, path) else { return }
        var web = WebOptions()
        for (name, key, value) in document.members(object, keyedBy: WebKey.self) {
            guard let key else {
                context.unknownField(JSONPointer.appending(path, document.string(name)), in: "web")
                continue
            }
            if document.isNull(value) { continue }
            // The member's pointer, made only for a diagnostic.
            func memberPath() -> String { "/web/" + key.rawValue }
            switch key {
            case .navigate:
                web.navigate = httpURL(
                    value, memberPath(), "navigate must be an absolute http or https URL with a host")
            case .icon:
                web.icon = httpURL(value, memberPath(), "an icon must be an absolute http or https URL with a host")
            case .lang: web.lang = context.string(value, memberPath())
            case .dir:
                web.dir = context.choice(
                    value, memberPath(), WebOptions.Direction.self, choices: ["auto", "ltr", "rtl"])
            case .silent: web.silent = context.bool(value, memberPath()) ?? false
            case .require_interaction: web.requireInteraction = context.bool(value, memberPath()) ?? false
            case .app_badge:
                if context.integer(value, memberPath(), in: 0...Self.largestAppBadge) != nil {
                    web.appBadge = document.number(value)
                }
            case .mutable: web.mutable = context.bool(value, memberPath()) ?? false
            case .urgency:
                web.urgency = context.choice(
                    value, memberPath(), WebOptions.Urgency.self, choices: ["very-low", "low", "normal", "high"])
            case .topic: web.topic = readTopic(value, memberPath())
            }
        }
        notification.web = web
    }

    /// A string that is an absolute `http` or `https` URL with a host; `invalid_url` with `message` otherwise.
    private mutating func httpURL(_ token: Int, _ path: @autoclosure () -> String, _ message: String) -> InputText? {
        guard let text = context.string(token, path()) else { return nil }
        guard document.withDecodedBytes(text, URLRules.isImageURL(bytes:)) else {
            context.error(.invalidURL, path(), message)
            return nil
        }
        return text
    }

    /// `web.topic`: 1 to 32 characters (`out_of_range` only, whatever they are), each of the URL-safe
    /// base64 alphabet `A-Z a-z 0-9 - _` (`invalid_value`), as RFC 8030's `Topic` header requires, and not
    /// 4n+1 of them (`invalid_value`, SPEC 9 version 4).
    private mutating func readTopic(_ token: Int, _ path: @autoclosure () -> String) -> InputText? {
        let document = self.document
        guard let text = context.string(token, path()) else { return nil }
        let length = document.characterCount(text)
        guard length <= 32 else {
            context.error(.outOfRange, path(), "must be 1 to 32 characters (RFC 8030's Topic), got \(length)")
            return nil
        }
        let isTopicByte: (UInt8) -> Bool = { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
        guard document.withDecodedBytes(text, { $0.allSatisfy(isTopicByte) }) else {
            context.error(
                .invalidValue, path(), "may hold only the URL-safe base64 characters A-Z, a-z, 0-9, - and _")
            return nil
        }
        // Version 4: base64url text is never 4n+1 characters long, and Apple's push service decodes `Topic`
        // as base64url (`BadWebPushTopic`).
        guard length % 4 != 1 else {
            context.error(
                .invalidValue, path(),
                "is \(length) character\(length == 1 ? "" : "s") long: Apple's push service decodes the topic as "
                    + "base64url, which is never 1, 5, 9, ... 29 characters long, and refuses it (BadWebPushTopic); "
                    + "use one character more or fewer")
            return nil
        }
        return text
    }
}

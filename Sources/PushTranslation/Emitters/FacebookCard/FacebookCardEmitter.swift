import PushModel

/// Writes the `fb-card` format (SPEC 5.3): `aps`, `fb_push_payload` (with a campaign), `fb_push_card`
/// version 1.0 in the form both the iOS and the Android card parsers read the same way, then `data`'s members.
struct FacebookCardEmitter: Emitter {
    let format = OutputFormat.fbCard
    private static let reserved = ReservedKeys(names: ["aps", "fb_push_card", "fb_push_payload"], prefix: nil)
    /// Written when no backdrop color is given: Android refuses a card without one.
    static let defaultBackdropColor = "#00000000"
    /// Written when styled text has no color: Android would draw it transparent.
    static let defaultTextColor = "#000000FF"

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        var errors = Self.reserved.check(notification.data, shared, document, format: format)
        if let empty = APSWriter.checkNotEmpty(notification) { errors.append(empty) }
        guard errors.isEmpty, let card = notification.card else {
            return Emission(failed: errors)
        }
        let start = writer.beginOutput()
        writer.beginObject()
        APSWriter.write(notification, variant: .standard, document, into: &writer)
        if let campaign = card.campaign {
            writer.key("fb_push_payload")
            writer.beginObject()
            writer.key("campaign")
            writer.string(campaign, document)
            writer.endObject()
        }
        writer.key("fb_push_card")
        writeCard(card, message: notification.message, document, into: &writer)
        let parts = SharedParts.Ranges(data: writer.data(notification.data, document, shared.written.data))
        writer.endObject()
        return PayloadLimit.emission(writer, from: start, format: format, parts: parts)
    }

    private func writeCard(_ card: Card, message: Message, _ document: JSONDocument, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version")
        writer.literal("1.0")
        writer.key("size")
        writer.string(card.size.rawValue)
        writeNumber("cornerRadius", card.cornerRadius, &writer)
        writeNumber("contentInset", card.contentInset, &writer)
        writer.key("backdropColor")
        writer.string(card.backdropColor ?? Self.defaultBackdropColor)
        APSWriter.writeOptional("dismissColor", card.dismissColor, &writer)
        if message.title != nil || message.body != nil {
            writer.key("alert")
            writer.beginObject()
            writer.member("title", message.title, document)
            writer.member("body", message.body, document)
            writer.endObject()
        }
        if let hero = card.hero {
            writer.key("hero")
            writer.beginObject()
            writeNumber("height", hero.height, &writer)
            writer.key("background")
            writeBackground(hero.background, document, &writer)
            writeStyledText("content", hero.content, document, &writer)
            APSWriter.writeOptional("contentAlign", hero.contentAlign?.rawValue, &writer)
            writer.endObject()
        }
        if let body = card.body {
            writer.key("body")
            writer.beginObject()
            writer.key("background")
            writeBackground(body.background, document, &writer)
            writeStyledText("content", body.content, document, &writer)
            writer.endObject()
        }
        if let actions = card.actions { writeActions(actions, document, &writer) }
        writer.endObject()
    }

    private func writeActions(_ actions: Card.Actions, _ document: JSONDocument, _ writer: inout JSONWriter) {
        writer.key("actions")
        writer.beginObject()
        APSWriter.writeOptional("style", actions.style?.rawValue, &writer)
        APSWriter.writeOptional("layoutStyle", actions.layoutStyle?.rawValue, &writer)
        if let background = actions.background {
            writer.key("background")
            writeBackground(background, document, &writer)
        }
        writeNumber("height", actions.height, &writer)
        writeNumber("topInset", actions.topInset, &writer)
        writeNumber("contentInset", actions.contentInset, &writer)
        writeNumber("cornerRadius", actions.cornerRadius, &writer)
        writer.key("actions")
        writer.beginArray()
        for button in actions.buttons {
            writer.beginObject()
            APSWriter.writeOptional("backgroundColor", button.backgroundColor, &writer)
            APSWriter.writeOptional("borderColor", button.borderColor, &writer)
            writeNumber("borderWidth", button.borderWidth, &writer)
            writeStyledText("content", button.content, document, &writer)
            writer.member("url", button.url, document)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    private func writeBackground(_ background: Card.Background, _ document: JSONDocument, _ writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("_type")
        switch background {
        case .image(let url):
            writer.literal("Image")
            writer.key("url")
            writer.string(url, document)
        case .gif(let url):
            writer.literal("GIF")
            writer.key("url")
            writer.string(url, document)
        case .color(let color):
            writer.literal("Color")
            writer.key("rgbaHex")
            writer.string(color)
        }
        writer.endObject()
    }

    private func writeStyledText(
        _ key: StaticString, _ text: Card.StyledText?, _ document: JSONDocument, _ writer: inout JSONWriter
    ) {
        guard let text else { return }
        writer.key(key)
        writer.beginObject()
        writer.key("_type")
        writer.literal("StyledText")
        writer.key("text")
        writer.string(text.text, document)
        writer.key("color")
        writer.string(text.color ?? Self.defaultTextColor)
        writeNumber("size", text.size, &writer)
        APSWriter.writeOptional("align", text.align?.rawValue, &writer)
        writer.member("font", text.font, document)
        writer.endObject()
    }

    private func writeNumber(_ key: StaticString, _ number: JSONNumber?, _ writer: inout JSONWriter) {
        guard let number else { return }
        writer.key(key)
        writer.number(number)
    }
}

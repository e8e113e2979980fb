import PushModel

/// Writes the `fcm` format (SPEC 5.5): the body of FCM HTTP v1 `projects.messages.send` without its
/// target (the sender adds `message.token` from the record key): `validate_only` for a dry run, `data`
/// as strings, and `android` with `collapse_key`, `priority`, `ttl` and `notification`.
struct FCMEmitter: Emitter {
    let format = OutputFormat.fcm

    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission {
        var errors = FCMReservedKeys.check(notification.data, document)
        let dataHasMembers = notification.data.map { document.count($0.token) > 0 } ?? false
        if !Self.hasNotification(notification) && !dataHasMembers {
            errors.append(
                Diagnostic(
                    .emptyNotification, at: "",
                    "nothing to deliver: give message.title, message.body, a custom.android_* option or data"))
        }
        guard errors.isEmpty else { return Emission(failed: errors) }
        let start = writer.beginOutput()
        writer.beginObject()
        if notification.dryRun {
            writer.key("validate_only")
            writer.bool(true)
        }
        writer.key("message")
        writer.beginObject()
        if let data = notification.data, dataHasMembers {
            writer.key("data")
            writeData(data, document, &writer)
        }
        writeAndroid(notification, document, &writer)
        writer.endObject()
        writer.endObject()
        return PayloadLimit.emission(writer, from: start, format: format)
    }

    /// Whether `android.notification` has a member.
    static func hasNotification(_ notification: PushNotification) -> Bool {
        let android = notification.android
        return notification.message.title != nil || notification.message.body != nil || android.icon != nil
            || android.sound != nil || android.clickAction != nil || android.channelID != nil
            || android.titleLocKey != nil
            || android.titleLocArgs != nil || android.bodyLocKey != nil || android.bodyLocArgs != nil
            || android.ledColor != nil
    }

    /// `data` with every value a string: strings copied, anything else as its compact JSON text.
    private func writeData(_ data: InputValue, _ document: JSONDocument, _ writer: inout JSONWriter) {
        writer.beginObject()
        for (name, value) in document.members(data.token) {
            writer.key(name: name, document)
            if document.kind(value) == .string {
                writer.value(value, document)
            } else {
                var text = JSONWriter(capacity: 64)
                text.value(value, document)
                text.withBytes { writer.string(utf8: $0) }
            }
        }
        writer.endObject()
    }

    private func writeAndroid(_ notification: PushNotification, _ document: JSONDocument, _ writer: inout JSONWriter) {
        let android = notification.android
        writer.key("android")
        writer.beginObject()
        writer.member("collapse_key", notification.ios.collapseID, document)
        writer.key("priority")
        writer.literal(notification.message.priority == .high ? "HIGH" : "NORMAL")
        writer.key("ttl")
        writer.duration(seconds: notification.message.ttlSeconds)
        if Self.hasNotification(notification) {
            writer.key("notification")
            writer.beginObject()
            writer.member("title", notification.message.title, document)
            writer.member("body", notification.message.body, document)
            writer.member("icon", android.icon, document)
            writer.member("sound", android.sound, document)
            writer.member("click_action", android.clickAction, document)
            writer.member("channel_id", android.channelID, document)
            writer.member("title_loc_key", android.titleLocKey, document)
            if let args = android.titleLocArgs {
                writer.key("title_loc_args")
                writer.locArgs(args, document)
            }
            writer.member("body_loc_key", android.bodyLocKey, document)
            if let args = android.bodyLocArgs {
                writer.key("body_loc_args")
                writer.locArgs(args, document)
            }
            if let color = android.ledColor { LightSettings.write(color: color, into: &writer) }
            writer.endObject()
        }
        writer.endObject()
    }
}

/// `android.notification.light_settings` from `#RRGGBB` (SPEC 5.5): each component divided by 255,
/// rounded half to even to 4 decimal places, with Android's default LED timings.
enum LightSettings {
    static func write(color: String, into writer: inout JSONWriter) {
        let digits = Array(color.utf8.dropFirst())
        func component(_ offset: Int) -> Int {
            Int(JSONDocument.hexValue(digits[offset]) ?? 0) * 16 + Int(JSONDocument.hexValue(digits[offset + 1]) ?? 0)
        }
        writer.key("light_settings")
        writer.beginObject()
        writer.key("color")
        writer.beginObject()
        writer.key("red")
        writer.decimal(ofTenThousandths: fraction(component(0)))
        writer.key("green")
        writer.decimal(ofTenThousandths: fraction(component(2)))
        writer.key("blue")
        writer.decimal(ofTenThousandths: fraction(component(4)))
        writer.key("alpha")
        writer.integer(1)
        writer.endObject()
        writer.key("light_on_duration")
        writer.literal("0.5s")
        writer.key("light_off_duration")
        writer.literal("2s")
        writer.endObject()
    }

    /// `component / 255` in ten-thousandths, rounded half to even (exact integer arithmetic; 255 is odd,
    /// so a remainder is never exactly half and the rounding is to the nearest).
    static func fraction(_ component: Int) -> Int {
        let (quotient, remainder) = (component * 10_000).quotientAndRemainder(dividingBy: 255)
        return 2 * remainder > 255 || (2 * remainder == 255 && quotient % 2 == 1) ? quotient + 1 : quotient
    }
}

/// The data member names FCM refuses (SPEC 5.5): `from`, `notification`, `message_type`, and names
/// starting with `google` or `gcm`, compared ASCII case-insensitively.
enum FCMReservedKeys {
    static func check(_ data: InputValue?, _ document: JSONDocument) -> [Diagnostic] {
        guard let data else { return [] }
        var errors: [Diagnostic] = []
        for (name, _) in document.members(data.token) {
            let lowered = document.decodedBytes(name).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            let reserved =
                ["from", "notification", "message_type"].contains { lowered.elementsEqual($0.utf8) }
                || lowered.starts(with: "google".utf8) || lowered.starts(with: "gcm".utf8)
            guard reserved else { continue }
            let text = document.string(name)
            errors.append(
                Diagnostic(
                    .reservedKey, at: JSONPointer.appending("/data", text),
                    "FCM refuses the data member \"\(JSONDocument.printable(text))\" (a reserved name); rename it"))
        }
        return errors
    }
}

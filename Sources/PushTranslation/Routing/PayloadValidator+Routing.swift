import PushModel

extension PayloadValidator {
    /// Chooses the formats (SPEC section 4): `targets` when given, else by platform and template.
    mutating func route() {
        var formats = OutputFormatSet()
        if let targets {
            if targets.contains(.adobeCarousel) && !hasCarousel {
                context.error(.missingField, "/carousel", "target adobe-carousel needs a carousel")
            }
            if targets.contains(.fbCard) && !hasCard {
                context.error(.missingField, "/card", "target fb-card needs a card")
            }
            formats = targets
        } else if platformInvalid {
            // No platform routing: the payload is a dead letter for its `platform` alone.
        } else {
            if platformIOS {
                if (hasCarousel ? 1 : 0) + (hasCard ? 1 : 0) + (hasLiveActivity ? 1 : 0) > 1 {
                    context.error(.ambiguousTemplate, "", ambiguousTemplateMessage())
                } else if hasCarousel {
                    formats.insert(.adobeCarousel)
                } else if hasCard {
                    formats.insert(.fbCard)
                } else {
                    formats.insert(.apns)
                }
            }
            if platformAndroid {
                for format in androidFormats { formats.insert(format) }
            }
            if platformWeb { formats.insert(.webpush) }
            if !platformIOS && !platformAndroid && !platformWeb {
                context.error(
                    .noTarget, "/platform",
                    "both platforms are disabled and no targets are given; nothing would be sent")
            }
        }
        notification.formats = formats
    }

    /// The message of `ambiguous_template`: which of `carousel`, `card` and `live_activity` are given.
    private func ambiguousTemplateMessage() -> String {
        let advice = "; keep one, or name the formats in targets"
        guard hasLiveActivity else { return "both carousel and card are given" + advice }
        let names = (hasCarousel ? ["carousel"] : []) + (hasCard ? ["card"] : []) + ["live_activity"]
        let listed = names.count == 2 ? "both \(names[0]) and \(names[1])" : "carousel, card and live_activity"
        return listed + " are given" + advice
    }

    /// Adds `unused_field` for every given field that no routed format uses. The payload is read a
    /// second time only when some kind of given field is unused.
    mutating func warnUnusedFields() {
        let formats = notification.formats
        let message = notification.message
        let routedUse = RoutedUse(
            formats: formats, liveActivity: hasLiveActivity,
            liveActivityAlert: message.title != nil || message.body != nil)
        guard givenUses.hasUnused(by: routedUse) else { return }
        var routed = ""
        for format in formats { routed += routed.isEmpty ? format.rawValue : ", " + format.rawValue }
        for field in givenFields() where !field.use.isUsed(by: routedUse) {
            context.warnings.append(
                Diagnostic(
                    .unusedField, at: field.path,
                    "not used by the routed formats (\(routed)); it is used by "
                        + field.use.usedByDescription(liveActivity: hasLiveActivity)))
        }
        context.warnings.sort()
    }

    /// Every given (non-null) field that only some formats use, with its use.
    private func givenFields() -> [(path: String, use: FieldUse)] {
        var fields: [(path: String, use: FieldUse)] = []
        for (name, value) in document.members(0) where !document.isNull(value) {
            switch document.key(name, as: TopLevelKey.self) {
            case .thread_id: fields.append(("/thread_id", .apnsDelivered))
            case .collapse_id: fields.append(("/collapse_id", .deliveryOptions))
            case .action: fields.append(("/action", notification.action?.kind == .url ? .actionURL : .actionOther))
            case .actions: fields.append(("/actions", .actions))
            case .expandable: fields.append(("/expandable", .expandable))
            case .carousel: fields.append(("/carousel", .carousel))
            case .card: fields.append(("/card", .card))
            case .live_activity: fields.append(("/live_activity", .liveActivity))
            case .web: fields.append(("/web", .web))
            case .message where document.kind(value) == .object:
                for (member, memberValue) in document.members(value) where !document.isNull(memberValue) {
                    switch document.key(member, as: MessageKey.self) {
                    case .subtitle: fields.append(("/message/subtitle", .apnsDelivered))
                    case .priority, .ttl:
                        fields.append((JSONPointer.appending("/message", document.string(member)), .deliveryOptions))
                    default: break
                    }
                }
            case .custom where document.kind(value) == .object:
                for (member, memberValue) in document.members(value) where !document.isNull(memberValue) {
                    guard let key = document.key(member, as: CustomKey.self) else { continue }
                    fields.append((JSONPointer.appending("/custom", key.rawValue), FieldUse(key)))
                }
            default: break
            }
        }
        return fields
    }
}

import PushModel

extension PayloadValidator {
    /// Chooses the formats (SPEC section 4): `targets` when given, else by platform and template.
    mutating func route() {
        var formats: [OutputFormat] = []
        if let targets {
            for format in targets {
                if format == .adobeCarousel && !hasCarousel {
                    context.error(.missingField, "/carousel", "target adobe-carousel needs a carousel")
                }
                if format == .fbCard && !hasCard {
                    context.error(.missingField, "/card", "target fb-card needs a card")
                }
            }
            formats = targets
        } else {
            if platformIOS {
                if hasCarousel && hasCard {
                    context.error(
                        .ambiguousTemplate, "",
                        "both carousel and card are given; keep one, or name the formats in targets")
                } else if hasCarousel {
                    formats.append(.adobeCarousel)
                } else if hasCard {
                    formats.append(.fbCard)
                } else {
                    formats.append(.apns)
                }
            }
            if platformAndroid { formats.append(.androidExpandable) }
            if !platformIOS && !platformAndroid {
                context.error(.noTarget, "/platform", "both platforms are disabled and no targets are given; nothing would be sent")
            }
        }
        notification.formats = formats.sorted()
    }

    /// Adds `unused_field` for every given field that no routed format uses.
    mutating func warnUnusedFields() {
        let formats = notification.formats
        for field in givenFields where !field.use.isUsed(by: formats) {
            let routed = formats.map(\.rawValue).joined(separator: ", ")
            context.warnings.append(
                Diagnostic(
                    .unusedField, at: field.path,
                    "not used by the routed formats (\(routed)); it is used by \(field.use.usedByDescription)"))
        }
        context.warnings.sort()
    }
}

/// What the world outside the binary needs to know of each format (`pushgate formats`): the platform whose
/// devices show it and the headers of its own that its records carry (SPEC section 1).
extension OutputFormat {
    /// The platform whose devices a format reaches.
    public enum Platform: String, Sendable {
        /// iPhone and iPad, through APNs.
        case ios
        /// Android devices.
        case android
        /// Web browsers (Safari, Firefox, web apps on the home screen), through a web push service.
        case web
    }

    /// The platform whose devices show this format.
    public var platform: Platform {
        switch self {
        case .apns, .adobeCarousel, .fbCard: .ios
        case .androidExpandable, .fcm: .android
        case .webpush: .web
        }
    }

    /// The names of the headers this format's records carry beyond `pushgate-*`, in record order; those
    /// written only when their value is set are included (`apns-channel-id`: a Live Activity broadcast,
    /// which only `apns` is).
    public var headerNames: [String] {
        switch self {
        case .apns: ["apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-channel-id"]
        case .adobeCarousel, .fbCard: ["apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id"]
        case .androidExpandable, .fcm: []
        case .webpush: ["webpush-ttl", "webpush-urgency", "webpush-topic"]
        }
    }

    /// The formats as a JSON array, one object per format in record order, one line each:
    /// `{"name":"apns","topic":"push.apns","platform":"ios","headers":["apns-push-type",..]}`. The names
    /// are ASCII letters, digits, `-` and `.`, written without escapes.
    public static var catalogueJSON: String {
        let lines = allCases.map { format in
            let headers = format.headerNames.map { "\"\($0)\"" }.joined(separator: ",")
            return "{\"name\":\"\(format.rawValue)\",\"topic\":\"\(format.defaultTopic)\","
                + "\"platform\":\"\(format.platform.rawValue)\",\"headers\":[\(headers)]}"
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]"
    }
}

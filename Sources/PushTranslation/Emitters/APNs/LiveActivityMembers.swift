import PushModel

/// The members of a checked `live_activity` object, by their tokens in the parsed payload (SPEC 5.1.1):
/// what the `apns` emitter and the `apns-channel-id` header read. `null` members are absent, unknown ones
/// (with `--lenient`) left out.
struct LiveActivityMembers {
    var contentState: Int?
    var timestamp: Int?
    var staleDate: Int?
    var dismissalDate: Int?
    var relevanceScore: Int?
    var attributesType: Int?
    var attributes: Int?
    /// Whether `input_push_token` is `true`.
    var inputPushToken = false
    var inputPushChannel: Int?
    var channelID: Int?

    /// Reads the members of `activity`'s object.
    init(_ activity: LiveActivity, _ document: JSONDocument) {
        for (_, key, value) in document.members(activity.object.token, keyedBy: LiveActivityKey.self)
        where !document.isNull(value) {
            switch key {
            case .content_state: contentState = value
            case .timestamp: timestamp = value
            case .stale_date: staleDate = value
            case .dismissal_date: dismissalDate = value
            case .relevance_score: relevanceScore = value
            case .attributes_type: attributesType = value
            case .attributes: attributes = value
            case .input_push_token: inputPushToken = document.kind(value) == .true
            case .input_push_channel: inputPushChannel = value
            case .channel_id: channelID = value
            case .event, nil: break
            }
        }
    }
}

import PushModel

extension PayloadValidator {
    /// The largest seconds value: 9999-12-31T23:59:59Z.
    static let latestSeconds: Int64 = 253_402_300_799

    /// The pointer of `live_activity`.
    private static var liveActivityPath: String { "/live_activity" }

    /// Checks `live_activity` (SPEC 5.1.1 and 9, "Live Activity checks"): each key's type and range, then
    /// the rules of its event (required keys, keys the event does not take). A missing or invalid `event`
    /// skips only the event rules.
    mutating func readLiveActivity(_ token: Int) {
        let document = self.document
        let path = Self.liveActivityPath
        hasLiveActivity = true
        givenUses.insert(.liveActivity)
        guard let object = context.object(token, path) else { return }
        let event = Self.event(of: object, document)
        var given: Set<LiveActivityKey> = []
        for (name, key, value) in document.members(object, keyedBy: LiveActivityKey.self) {
            guard let key else {
                context.unknownField(JSONPointer.appending(path, document.string(name)), in: "live_activity")
                continue
            }
            if document.isNull(value) { continue }
            given.insert(key)
            let keyPath = JSONPointer.appending(path, key.rawValue)
            if let event, !key.isTaken(by: event) {
                context.error(
                    .invalidValue, keyPath,
                    "\(key.rawValue) is not used with event \"\(event.rawValue)\" (only with \(key.takenBy)); remove it"
                )
                continue
            }
            checkLiveActivityMember(key, value, keyPath)
        }
        guard let event else {
            if !given.contains(.event) {
                context.error(
                    .missingField, JSONPointer.appending(path, "event"), "give \"start\", \"update\" or \"end\"")
            }
            return
        }
        for key in Self.requiredKeys(event) where !given.contains(key) {
            context.error(
                .missingField, JSONPointer.appending(path, key.rawValue),
                "a Live Activity \"\(event.rawValue)\" needs \(key.rawValue)")
        }
        notification.liveActivity = LiveActivity(event: event, object: InputValue(token: object))
    }

    /// The keys an event requires.
    private static func requiredKeys(_ event: LiveActivity.Event) -> [LiveActivityKey] {
        switch event {
        case .start: [.content_state, .attributes_type, .attributes]
        case .update: [.content_state]
        case .end: []
        }
    }

    /// The valid `event` of the object, without reporting anything (the member loop reports it).
    private static func event(of object: Int, _ document: JSONDocument) -> LiveActivity.Event? {
        guard let token = document.member(object, named: "event"), document.kind(token) == .string else { return nil }
        return document.withDecodedBytes(document.text(token), LiveActivity.Event.keyTable.match)
    }

    /// Checks one member's type and range (the emitter writes it from the input as it is).
    private mutating func checkLiveActivityMember(_ key: LiveActivityKey, _ value: Int, _ path: String) {
        switch key {
        case .event:
            _ = context.choice(
                value, path, LiveActivity.Event.self, choices: LiveActivity.Event.allCases.map(\.rawValue))
        case .content_state, .attributes: checkAppObject(value, path)
        case .timestamp, .stale_date, .dismissal_date: _ = context.integer(value, path, in: 0...Self.latestSeconds)
        case .relevance_score: _ = context.number(value, path, minimum: 0)
        case .attributes_type, .input_push_channel, .channel_id: _ = context.string(value, path)
        case .input_push_token: _ = context.bool(value, path)
        }
    }

    /// Checks an object of the app's own types (`content_state`, `attributes`), copied as it is: any member
    /// or element inside it that is `null` is `invalid_value` (APNs refuses `null`).
    private mutating func checkAppObject(_ token: Int, _ path: String) {
        guard let object = context.object(token, path) else { return }
        let document = self.document
        // Most objects hold no null: only then are the pointers made.
        if (object + 1..<document.end(object)).contains(where: { document.isNull($0) }) {
            reportNulls(in: object, path)
        }
    }

    /// Reports every `null` inside the container at `token`.
    private mutating func reportNulls(in token: Int, _ path: String) {
        let document = self.document
        var children: [(path: String, value: Int)] = []
        if document.kind(token) == .object {
            for (name, value) in document.members(token) {
                children.append((JSONPointer.appending(path, document.string(name)), value))
            }
        } else {
            for (index, value) in document.elements(token).enumerated() {
                children.append((JSONPointer.appending(path, index), value))
            }
        }
        for (childPath, value) in children {
            switch document.kind(value) {
            case .null:
                context.error(.invalidValue, childPath, "null is not allowed here (APNs refuses null); remove it")
            case .object, .array: reportNulls(in: value, childPath)
            default: break
            }
        }
    }
}

import PushModel

extension RecordBuilder {
    /// Where the input's key and the header texts of its outputs are in the buffer the outputs share.
    struct SharedPlaces {
        var key: BufferRange?
        var id: BufferRange?
        var collapseID: BufferRange?
        var channelID: BufferRange?
        var webpushTopic: BufferRange?
    }

    /// Appends the input record's key and the texts of the payload its outputs' headers carry (decoded
    /// UTF-8) to `writer`, after the outputs' values, which begin at `start`; where they are, counted
    /// from `start`. The buffer the outputs of the input share is then one copy of the writer from
    /// `start` (one allocation), and each output holds one reference, to it: a reference to the key's
    /// array and one to the input's value (for its id) cost a retain and a release each per output.
    /// `shared` says which formats' headers there are.
    func appendSharedParts(
        _ notification: borrowing PushNotification, _ document: JSONDocument, _ shared: SharedHeaders,
        to writer: inout JSONWriter, from start: Int
    ) -> SharedPlaces {
        var places = SharedPlaces()
        if let key { places.key = Self.append(key, to: &writer, from: start) }
        if let id = notification.id { places.id = Self.append(id, document, to: &writer, from: start) }
        if shared.apns != nil {
            if let collapseID = notification.ios.collapseID {
                places.collapseID = Self.append(collapseID, document, to: &writer, from: start)
            }
            if notification.liveActivity != nil, let channelID = Self.channelID(of: notification, document) {
                places.channelID = Self.append(channelID, document, to: &writer, from: start)
            }
        }
        if shared.webpush != nil, let topic = notification.web?.topic {
            places.webpushTopic = Self.append(topic, document, to: &writer, from: start)
        }
        return places
    }

    /// The `channel_id` of a Live Activity broadcast. Out of line: most payloads have no Live Activity.
    @inline(never)
    private static func channelID(of notification: borrowing PushNotification, _ document: JSONDocument)
        -> InputText?
    {
        guard let activity = notification.liveActivity else { return nil }
        return LiveActivityMembers(activity, document).channelID.map { document.text($0) }
    }

    /// Appends `part` to `writer`; where it went, counted from `start`.
    private static func append(_ part: UnsafeBufferPointer<UInt8>, to writer: inout JSONWriter, from start: Int)
        -> BufferRange
    {
        let begin = writer.count - start
        writer.append(part)
        return BufferRange(begin..<writer.count - start)
    }

    /// Appends the decoded UTF-8 of `text` to `writer` (its bytes in the payload, unless it holds escapes);
    /// where it went, counted from `start`.
    private static func append(
        _ text: InputText, _ document: JSONDocument, to writer: inout JSONWriter, from start: Int
    )
        -> BufferRange
    {
        guard text.isEscaped else { return append(document.raw(text), to: &writer, from: start) }
        return JSONDocument.decode(document.raw(text)).withUnsafeBufferPointer { append($0, to: &writer, from: start) }
    }
}

/// Every error and warning code of SPEC section 6.
public enum DiagnosticCode: String, Sendable, CaseIterable, Comparable {
    // parse
    case invalidJSON = "invalid_json"
    case invalidUTF8 = "invalid_utf8"
    case tooLarge = "too_large"
    case tooDeep = "too_deep"
    case notAnObject = "not_an_object"
    // validate
    case unknownField = "unknown_field"
    case wrongType = "wrong_type"
    case missingField = "missing_field"
    case invalidValue = "invalid_value"
    case outOfRange = "out_of_range"
    case invalidColor = "invalid_color"
    case invalidURL = "invalid_url"
    case tooManyActions = "too_many_actions"
    case invalidItemCount = "invalid_item_count"
    case ambiguousTemplate = "ambiguous_template"
    case noTarget = "no_target"
    // emit
    case reservedKey = "reserved_key"
    case emptyNotification = "empty_notification"
    case payloadTooLarge = "payload_too_large"
    // warnings
    case unusedField = "unused_field"
    case overriddenField = "overridden_field"
    case textTooLong = "text_too_long"
    case unsupportedAction = "unsupported_action"

    /// Codes compare by their text, as SPEC's sort order asks.
    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// The stage a dead letter was made at.
public enum Stage: String, Sendable, Equatable {
    /// Input checks of SPEC section 2.
    case parse
    /// Field checks and routing of SPEC sections 3 and 4.
    case validate
    /// A format's own checks of SPEC section 5.
    case emit
}

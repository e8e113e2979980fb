import Foundation

extension SettingParser where Value == Duration {
    /// A duration in `range`: a whole number with a unit `ms`, `s`, `m` or `h` (`500ms`, `30s`, `2m`), a
    /// bare number being seconds (SPEC 10.8); spaces around the text are ignored. Written as the largest
    /// unit that divides it (`30s`, `1500ms`).
    public static func duration(_ range: ClosedRange<Duration>) -> Self {
        Self(
            parse: { text, name throws(SettingError) in
                guard let duration = Self.duration(of: text.trimmingCharacters(in: .whitespaces)) else {
                    throw SettingError(
                        "\(name) must be a duration (a whole number with ms, s, m or h; seconds without), not '\(text)'"
                    )
                }
                return duration
            },
            check: { duration, name throws(SettingError) in
                guard range.contains(duration) else {
                    throw SettingError(
                        "\(name) must be at least \(Self.text(of: range.lowerBound)) and at most "
                            + "\(Self.text(of: range.upperBound)), not \(Self.text(of: duration))")
                }
            },
            describe: { "`\(Self.text(of: $0))`" })
    }

    /// The units a duration may be written in, longest suffix first, with their length in milliseconds.
    private static var units: [(suffix: String, milliseconds: Int64)] {
        [("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
    }

    /// `text` as a duration, `nil` when it is not a whole number with an optional unit.
    static func duration(of text: String) -> Duration? {
        let (digits, milliseconds) =
            units.first { text.hasSuffix($0.suffix) }.map { (String(text.dropLast($0.suffix.count)), $0.milliseconds) }
            ?? (text, 1000)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let number = Int64(digits)
        else { return nil }
        let (total, overflow) = number.multipliedReportingOverflow(by: milliseconds)
        return overflow ? nil : .milliseconds(total)
    }

    /// `duration` in the largest unit that divides it.
    static func text(of duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        let whole = Int64(milliseconds.rounded())
        guard whole != 0 else { return "0s" }
        for (suffix, size) in units.dropFirst() where whole % size == 0 { return "\(whole / size)\(suffix)" }
        return "\(whole)ms"
    }
}

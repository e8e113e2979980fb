import PushModel
import PushTranslation

/// The pages of the playground and the console, each put together from the files of
/// `Resources/playground/`: `playground.html` and `console.html`, in which each `{{FILE}}` stands for the
/// file of that name beside it, except `{{formats.js}}`, which the binary writes (``formatsScript``): the
/// list of formats the page offers is the binary's. The pages need nothing from the network except the
/// images an output names (drawn as a placeholder when they cannot load).
///
/// The parts: `playground.css` (the style), `editor.html` (the payload editor, the input record and the
/// translator's options, in both pages) and, in one `<script>`, `pointer.js` (where a JSON Pointer is in
/// the editor text, and the raw text of an output's `value`), `api.js` (requests to `/api`, with the
/// token when there is one), `playground.js` (examples, the request
/// debounced as you type, the record list, problems and warnings linked to the editor) and the previews
/// drawn from the output JSON only: `preview-apple.js` (the iOS banner of `apns`, the Adobe carousel),
/// `preview-live-activity.js` (an `apns` Live Activity push on the lock screen), `preview-card.js` (the Facebook
/// in-app card of `fb-card`), `preview-android.js` (the notification of `android-expandable` and of `fcm`) and
/// `preview-web.js` (the browser notification of `webpush`). The console adds `console.css` and `console.js` (dead letters,
/// re-drives, follow-through, the live view).
enum PlaygroundPage {
    /// The part of the pages that is not a file: ``formatsScript``.
    static let formatsPart = "formats.js"

    /// `const FORMATS = [..];` (what `pushgate formats` prints) and `const DEFAULT_ANDROID_FORMATS = [..];`
    /// (the formats of Android payloads when `--android-formats` is not given), for the page's scripts.
    static var formatsScript: [UInt8] {
        let defaults = OutputFormat.allCases.filter { TranslatorConfiguration.defaultAndroidFormats.contains($0) }
        let names = defaults.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        return Array(
            "const FORMATS = \(OutputFormat.catalogueJSON);\nconst DEFAULT_ANDROID_FORMATS = [\(names)];\n".utf8)
    }

    /// `template` with each `{{NAME}}` replaced by the bytes `file` gives for `NAME`. The final newline of
    /// each file, the template's included, is left out: parts join exactly where the template puts them.
    /// - Throws: ``PlaygroundResourceError`` for a `{{` without `}}`, or what `file` throws.
    static func assemble(
        _ template: [UInt8], file: (String) throws(PlaygroundResourceError) -> [UInt8]
    ) throws(PlaygroundResourceError) -> [UInt8] {
        var page: [UInt8] = []
        var index = template.startIndex
        while let open = Self.find(Self.open, in: template, from: index) {
            page.append(contentsOf: template[index..<open])
            let nameStart = open + Self.open.count
            guard let close = Self.find(Self.close, in: template, from: nameStart) else {
                throw PlaygroundResourceError("playground.html: a {{ without }}")
            }
            page.append(
                contentsOf: Self.withoutFinalNewline(
                    try file(String(decoding: template[nameStart..<close], as: UTF8.self))))
            index = close + Self.close.count
        }
        page.append(contentsOf: template[index...])
        return Array(Self.withoutFinalNewline(page))
    }

    /// `bytes` without one final `\n`: files end with a newline, the page's parts do not.
    static func withoutFinalNewline(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
    }

    private static let open = Array("{{".utf8)
    private static let close = Array("}}".utf8)

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

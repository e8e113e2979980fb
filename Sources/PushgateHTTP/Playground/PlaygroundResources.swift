import Foundation

/// What the playground serves from files: its page (``PlaygroundPage``) and the example payloads, read
/// once from this target's resources, `Resources/playground/` and `Resources/examples/payloads.jsonl`
/// (`examples/payloads.jsonl` at the repository root is a link to that file).
///
/// SwiftPM copies them into `pushgate_PushgateHTTP.resources` beside the built binary, where the binary
/// looks for them; an installation must copy that folder beside `pushgate` too (`deploy/Dockerfile`
/// does). A binary without it gets an error that names the folder, not SwiftPM's `Bundle.module`, which
/// ends the process.
public struct PlaygroundResources: Sendable {
    /// The page as sent for `GET /`.
    public let page: [UInt8]
    /// The console's page (`pushgate console`'s `GET /`), from `console.html` beside the playground's.
    public let consolePage: [UInt8]
    /// The example payloads, one per line of the examples file.
    public let examples: [String]
    /// The body of `GET /api/examples`: ``examples`` as a JSON array of strings.
    public let examplesJSON: [UInt8]

    /// Creates the resources from the pages and the examples file's text (one payload per line).
    public init(page: [UInt8], consolePage: [UInt8] = [], examplesFile: String) {
        self.page = page
        self.consolePage = consolePage
        examples = examplesFile.split(separator: "\n").map(String.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        examplesJSON = (try? encoder.encode(examples)).map(Array.init) ?? Array("[]".utf8)
    }

    /// Reads the page's files and the examples from the resource bundle. Blocking file reads: call it
    /// off the cooperative pool.
    /// - Throws: ``PlaygroundResourceError`` naming a file that is missing or unreadable.
    public static func load() throws(PlaygroundResourceError) -> PlaygroundResources {
        let bundle = try resourceBundle()
        func read(_ name: String, in folder: String) throws(PlaygroundResourceError) -> [UInt8] {
            guard let url = bundle.url(forResource: name, withExtension: nil, subdirectory: folder),
                let data = FileManager.default.contents(atPath: url.path)
            else {
                throw PlaygroundResourceError("cannot read \(folder)/\(name) in \(bundle.bundlePath)")
            }
            return Array(data)
        }
        func assemble(_ template: String) throws(PlaygroundResourceError) -> [UInt8] {
            try PlaygroundPage.assemble(try read(template, in: "playground")) { name throws(PlaygroundResourceError) in
                if name == PlaygroundPage.formatsPart { return PlaygroundPage.formatsScript }
                guard !name.isEmpty, !name.contains("/") else {
                    throw PlaygroundResourceError("\(template): '{{\(name)}}' does not name a file beside it")
                }
                return try read(name, in: "playground")
            }
        }
        let examples = try read("payloads.jsonl", in: "examples")
        return PlaygroundResources(
            page: try assemble("playground.html"), consolePage: try assemble("console.html"),
            examplesFile: String(decoding: examples, as: UTF8.self))
    }
}

extension PlaygroundResources {
    /// The folder SwiftPM copies this target's resources into, beside the binary.
    static let bundleName = "pushgate_PushgateHTTP.resources"

    /// The resource folder beside the running binary (or beside the file a link to it points to).
    static func resourceBundle() throws(PlaygroundResourceError) -> Bundle {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var folders = [Bundle.main.bundleURL]
        if executable.deletingLastPathComponent() != folders[0] {
            folders.append(executable.deletingLastPathComponent())
        }
        for folder in folders {
            if let bundle = Bundle(path: folder.appendingPathComponent(bundleName).path) { return bundle }
        }
        throw PlaygroundResourceError(
            "no \(bundleName) beside the binary (looked in \(folders.map(\.path).joined(separator: " and "))): copy it "
                + "beside pushgate, as the build leaves it")
    }
}

/// The playground's files cannot be read: the resource bundle is missing or incomplete.
public struct PlaygroundResourceError: Error, CustomStringConvertible {
    /// What is missing, naming the file and the bundle.
    public let description: String

    init(_ description: String) { self.description = "the playground's files: " + description }
}

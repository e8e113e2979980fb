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
    /// The example payloads, one per line of the examples file.
    public let examples: [String]
    /// The body of `GET /api/examples`: ``examples`` as a JSON array of strings.
    public let examplesJSON: [UInt8]

    /// Creates the resources from the page and the examples file's text (one payload per line).
    public init(page: [UInt8], examplesFile: String) {
        self.page = page
        examples = examplesFile.split(separator: "\n").map(String.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        examplesJSON = (try? encoder.encode(examples)).map(Array.init) ?? Array("[]".utf8)
    }

    /// Reads the page's files and the examples from the resource bundle. Blocking file reads: call it
    /// off the cooperative pool.
    /// - Throws: ``PlaygroundResourceError`` naming a file that is missing or unreadable.
    public static func load() throws(PlaygroundResourceError) -> PlaygroundResources {
        let bundle = try resourceBundle(named: bundleName)
        let examples = try read("payloads.jsonl", in: "examples", of: bundle)
        return PlaygroundResources(
            page: try assemble(try read("playground.html", in: "playground", of: bundle), own: { _ in nil }),
            examplesFile: String(decoding: examples, as: UTF8.self))
    }

    /// Puts a page together from `template` (``PlaygroundPage``): each `{{NAME}}` is what `own` gives for
    /// `NAME`, or, when it gives nil, the playground's part of that name. Blocking file reads: call it off
    /// the cooperative pool.
    /// - Throws: ``PlaygroundResourceError`` naming a part that is missing or unreadable.
    public static func assemble(
        _ template: [UInt8], own: (String) throws(PlaygroundResourceError) -> [UInt8]?
    ) throws(PlaygroundResourceError) -> [UInt8] {
        let bundle = try resourceBundle(named: bundleName)
        return try PlaygroundPage.assemble(template) { name throws(PlaygroundResourceError) in
            if name == PlaygroundPage.formatsPart { return PlaygroundPage.formatsScript }
            guard !name.isEmpty, !name.contains("/") else {
                throw PlaygroundResourceError("'{{\(name)}}' does not name a file beside the page")
            }
            if let part = try own(name) { return part }
            return try read(name, in: "playground", of: bundle)
        }
    }

    /// The bytes of `folder/name` in `bundle`.
    /// - Throws: ``PlaygroundResourceError`` when the file is missing or unreadable.
    public static func read(_ name: String, in folder: String, of bundle: Bundle) throws(PlaygroundResourceError)
        -> [UInt8]
    {
        guard let url = bundle.url(forResource: name, withExtension: nil, subdirectory: folder),
            let data = FileManager.default.contents(atPath: url.path)
        else {
            throw PlaygroundResourceError("cannot read \(folder)/\(name) in \(bundle.bundlePath)")
        }
        return Array(data)
    }
}

extension PlaygroundResources {
    /// The folder SwiftPM copies this target's resources into, beside the binary.
    static let bundleName = "pushgate_PushgateHTTP.resources"

    /// The resource folder `bundleName` (SwiftPM's `PACKAGE_TARGET.resources`) beside the running binary
    /// (or beside the file a link to it points to).
    /// - Throws: ``PlaygroundResourceError`` naming the folders looked in.
    public static func resourceBundle(named bundleName: String) throws(PlaygroundResourceError) -> Bundle {
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

/// A page's files (the playground's or the console's) cannot be read: the resource bundle is missing or incomplete.
public struct PlaygroundResourceError: Error, CustomStringConvertible {
    /// What is missing, naming the file and the bundle.
    public let description: String

    /// Creates the error from what is missing.
    public init(_ description: String) { self.description = "the page's files: " + description }
}

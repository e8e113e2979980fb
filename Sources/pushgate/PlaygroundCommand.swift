import ArgumentParser
import Logging
import PushWorker
import PushgateHTTP
import PushgateSettings
import ServiceLifecycle

/// `pushgate playground`: a local web page to write a payload and see every record it gives, drawn as the
/// devices will show it, from the same translator as `pushgate translate`.
struct PlaygroundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Serve a web page to try payloads: every output record, drawn as devices show it, and every problem.",
        discussion: """
            GET / is the page (HTML, CSS and JavaScript in the binary; no network needed).
            POST /api/translate takes {"payload": TEXT, "record": {..}, "android_formats": [..], "lenient": BOOL} \
            and answers a JSON array of the lines `pushgate translate` writes.
            Off loopback (--host other than 127.0.0.1, ::1 or localhost) --token-file is required: every /api \
            request must then carry Authorization: Bearer TOKEN, or gets 401. Serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The TCP port (0: any free port, printed).")
    var port = 8080

    @Option(help: "The address to bind; loopback by default, so only this machine can reach the page.")
    var host = PlaygroundServer.defaultHost

    @Option(help: "A file holding the token every /api request must carry (Authorization: Bearer TOKEN).")
    var tokenFile: String?

    @Option(Settings.maxPayloadBytes)
    var maxPayloadBytes: Int?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        _ = try payloadLimit()
        if let refusal = ListenAddressRule.refusal(host: host, hasToken: tokenFile != nil) {
            throw ValidationError(refusal)
        }
    }

    func run() async throws {
        var logger = Logger(label: "pushgate.playground")
        logger.logLevel = .notice
        let resources = try await DedicatedThread.run(name: "playground-resources") { try PlaygroundResources.load() }
        let token = try await tokenFile.asyncMap { path in
            try await DedicatedThread.run(name: "playground-token") { try BearerToken.read(path: path) }
        }
        let server = PlaygroundServer(
            host: host, port: port, routes: PlaygroundRoutes(maxPayloadBytes: try payloadLimit(), resources: resources),
            token: token, logger: logger,
            onListening: { port in StandardStreams.writeLine("playground listening on port \(port)") })
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: server, successTerminationBehavior: .gracefullyShutdownGroup,
                        serviceName: ServiceName.playground)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// `--max-payload-bytes` checked by its ``Settings`` definition, or its default.
    private func payloadLimit() throws -> Int {
        try validating { () throws(SettingError) in
            try SettingReader().value(Settings.maxPayloadBytes, flag: maxPayloadBytes)
        }
    }
}

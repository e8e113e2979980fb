import Logging

extension FCMSender {
    /// A sender made from the command line's FCM options (SPEC 10.4, 10.8), reading every service-account file
    /// now: no file, a file that cannot be used (``FCMServiceAccount/load(path:)``), two files of one project or an
    /// endpoint that is not an `https` URL is a ``SenderOptionError`` naming `--fcm-credentials` or `--fcm-endpoint`;
    /// a `nil` endpoint is Google's.
    public static func make(
        credentialFiles: [String], endpoint: String? = nil, http: PushHTTPClient, logger: Logger
    ) throws(SenderOptionError) -> FCMSender {
        let base = try endpoint.map { text throws(SenderOptionError) in
            try APNsEndpoint(text, option: "--fcm-endpoint").base
        }
        guard !credentialFiles.isEmpty else {
            throw SenderOptionError(option: FCMServiceAccount.option, message: "is required for fcm")
        }
        var tokens: [FCMAccessToken] = []
        var files: [String: String] = [:]
        for path in credentialFiles {
            let account = try FCMServiceAccount.load(path: path)
            if let earlier = files[account.projectID] {
                throw SenderOptionError(
                    option: FCMServiceAccount.option,
                    message: "\(earlier) and \(path) are both of project \(account.projectID) (one file per project)")
            }
            files[account.projectID] = path
            tokens.append(FCMAccessToken(account: account, http: http, logger: logger))
        }
        return FCMSender(tokens: tokens, endpoint: base ?? defaultEndpoint, http: http, logger: logger)
    }
}

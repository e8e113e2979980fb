import PushDelivery

/// Runs `body` with an HTTP client for talking to a stand-in (trusting `caFiles`, a 2 s connect timeout and
/// `requestTimeout` per request), then shuts the client down, whether `body` returns or throws.
func withStandInHTTPClient<T>(
    caFiles: [String], requestTimeout: Duration, _ body: (PushHTTPClient) async throws -> T
) async throws -> T {
    let http = try PushHTTPClient(
        configuration: PushHTTPConfiguration(
            caFiles: caFiles, requestTimeout: requestTimeout, connectTimeout: .seconds(2)))
    do {
        let result = try await body(http)
        await http.shutdown()
        return result
    } catch {
        await http.shutdown()
        throw error
    }
}

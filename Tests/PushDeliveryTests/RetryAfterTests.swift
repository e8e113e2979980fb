import PushDelivery
import Testing

/// `Retry-After` (RFC 9110 10.2.3): seconds or an HTTP date in any of its three formats.
struct RetryAfterTests {
    let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func secondsAreReadAsTheyAre() {
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("99999999999999999999", now: now) == RetryAfter.longest)
        #expect(RetryAfter.parse("100000", now: now) == RetryAfter.longest)
    }

    @Test(arguments: ["", "-1", "1.5", "soon", "12 s", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT"])
    func anythingElseIsNotAWait(value: String) {
        #expect(RetryAfter.parse(value, now: now) == nil)
    }

    @Test func theThreeDateFormatsAreReadAsGMT() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == 1_835_481_599)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
    }

    @Test func aDateIsAWaitUntilThenAndAPastDateNone() {
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
    }
}

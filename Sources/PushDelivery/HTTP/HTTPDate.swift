/// HTTP dates (RFC 9110 section 5.6.7): the three formats a recipient must read, all in GMT.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames: Set<String> = [
        "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]

    /// Seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), an RFC 850 date
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) or an asctime date (`Sun Nov  6 08:49:37 1994`); `nil` for anything else.
    public static func parse(_ text: String) -> Int64? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        guard let dayName = fields.first, dayNames.contains(dayName) else { return nil }
        let day: String
        let month: String
        var year: String
        let time: String
        switch fields.count {
        case 6 where fields[5] == "GMT":  // IMF-fixdate and RFC 850
            (day, month, year, time) = (fields[1], fields[2], fields[3], fields[4])
        case 5:  // asctime
            (month, day, time, year) = (fields[1], fields[2], fields[3], fields[4])
        default:
            return nil
        }
        if year.count == 2, let short = Int(year) { year = String(short < 70 ? 2000 + short : 1900 + short) }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let monthIndex = months.firstIndex(of: month), let dayNumber = number(day, digits: 1...2),
            let yearNumber = number(year, digits: 4...4), clock.count == 3,
            let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2),
            (1...31).contains(dayNumber), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSince1970(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func number(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count),
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int64(era * 146_097 + dayOfEra - 719_468)
    }
}

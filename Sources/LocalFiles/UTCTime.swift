#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment broken into its UTC calendar parts (by `gmtime_r`, here and nowhere else), and the
/// ways the project writes it: PO headers, HTTP, EPUB metadata, the keeper's dates and clocks.
public struct UTCTime: Sendable, Equatable {
    /// The time a file made now says it was made: SOURCE_DATE_EPOCH's when the environment sets it
    /// (reproducible builds: a book made again is the same), else now.
    public static func buildTime(_ environment: [String: String]) -> UTCTime {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap({ Int($0) }) { return UTCTime(Double(epoch)) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UTCTime(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    }

    public var year: Int
    /// 1 to 12.
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 (Sunday) to 6.
    public var weekday: Int

    /// `seconds` since 1970-01-01 00:00 UTC (fractions dropped).
    public init(_ seconds: Double) {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
    }

    /// The moment now.
    public static func now() -> UTCTime { UTCTime(Double(time(nil))) }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func four(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }

    /// `2026-11-26`.
    public var date: String { "\(Self.four(year))-\(Self.two(month))-\(Self.two(day))" }
    /// `14:05`.
    public var clock: String { "\(Self.two(hour)):\(Self.two(minute))" }
    /// `2026-11-26 14:05 UTC`: for people.
    public var dateAndClock: String { "\(date) \(clock) UTC" }
    /// `2026-11-26 14:05+0000`: gettext's PO-Revision-Date.
    public var poRevisionDate: String { "\(date) \(clock)+0000" }
    /// `2026-11-26T14:05:09Z`: ISO 8601 (EPUB's dcterms:modified).
    public var iso8601: String { "\(date)T\(clock):\(Self.two(second))Z" }
    /// `Thu, 26 Nov 2026 14:05:09 GMT`: HTTP's Date (RFC 9110's IMF-fixdate).
    public var httpDate: String {
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[weekday]), \(Self.two(day)) \(months[month - 1]) \(Self.four(year)) \(clock):\(Self.two(second)) GMT"
    }
}

import LocalFiles
import Testing

/// Every date the project writes comes from one breakdown of a moment into UTC.
@Suite("Moments in UTC")
struct UTCTimeTests {
    @Test("each format the project writes, for a known moment")
    func formats() {
        // 2026-11-26 14:05:09 UTC, a Thursday.
        let moment = UTCTime(1_795_701_909)
        #expect(moment == UTCTime(1_795_701_909.75), "fractions of a second are dropped")
        #expect(moment.date == "2026-11-26")
        #expect(moment.clock == "14:05")
        #expect(moment.dateAndClock == "2026-11-26 14:05 UTC")
        #expect(moment.poRevisionDate == "2026-11-26 14:05+0000")
        #expect(moment.iso8601 == "2026-11-26T14:05:09Z")
        #expect(moment.httpDate == "Thu, 26 Nov 2026 14:05:09 GMT")
    }

    @Test("the epoch, a leap day and a year before 1000 keep their shapes")
    func edges() {
        #expect(UTCTime(0).httpDate == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(UTCTime(951_782_400).date == "2000-02-29")
        #expect(UTCTime(-30_610_310_400).date == "0999-12-31")
    }
}

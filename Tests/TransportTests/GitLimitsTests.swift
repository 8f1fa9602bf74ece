import Testing

@testable import Transport

/// What a git server may send can be tuned from the environment; what is not a positive number
/// leaves the limit as it was.
@Suite("Git limits from the environment")
struct GitLimitsTests {
    @Test("each variable overrides its limit, and the low-speed pair is read as BYTES/SECONDS")
    func overrides() {
        let base = GitRepository.Limits.current
        let limits = base.overridden(by: [
            "CYD_GIT_TOTAL_SECONDS": "7.5", "CYD_GIT_MAX_BYTES": "1000", "CYD_GIT_MAX_REFS_BYTES": "200", "CYD_GIT_MAX_OBJECTS": "30",
            "CYD_GIT_MAX_REFS": "4", "CYD_GIT_LOW_SPEED": "512/9",
        ])
        #expect(limits.totalSeconds == 7.5 && limits.maximumBytes == 1000 && limits.maximumAdvertisementBytes == 200)
        #expect(limits.maximumObjects == 30 && limits.maximumRefs == 4)
        #expect(limits.lowSpeedBytesPerSecond == 512 && limits.lowSpeedSeconds == 9)
    }

    @Test("zero, negative, words and a malformed pair change nothing")
    func ignored() {
        let base = GitRepository.Limits.current
        let limits = base.overridden(by: [
            "CYD_GIT_TOTAL_SECONDS": "0", "CYD_GIT_MAX_BYTES": "-5", "CYD_GIT_MAX_OBJECTS": "many", "CYD_GIT_LOW_SPEED": "512", "CYD_GIT_MAX_REFS": "",
        ])
        #expect(limits == base)
        #expect(base.overridden(by: ["CYD_GIT_LOW_SPEED": "10/0"]) == base)
    }
}

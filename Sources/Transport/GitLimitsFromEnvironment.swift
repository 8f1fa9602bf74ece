extension GitRepository.Limits {
    /// These limits with what the environment overrides (for tuning and tests; defaults in
    /// docs/reading.md): CYD_GIT_TOTAL_SECONDS, CYD_GIT_MAX_BYTES, CYD_GIT_MAX_REFS,
    /// CYD_GIT_MAX_REFS_BYTES, CYD_GIT_MAX_OBJECTS and CYD_GIT_LOW_SPEED ("BYTES/SECONDS":
    /// abandoned below BYTES a second for SECONDS). A value that is not a positive number is ignored.
    public func overridden(by environment: [String: String]) -> Self {
        var limits = self
        if let value = environment["CYD_GIT_TOTAL_SECONDS"].flatMap(Double.init), value > 0 { limits.totalSeconds = value }
        if let value = environment["CYD_GIT_MAX_BYTES"].flatMap(Int64.init), value > 0 { limits.maximumBytes = value }
        if let value = environment["CYD_GIT_MAX_REFS_BYTES"].flatMap(Int64.init), value > 0 { limits.maximumAdvertisementBytes = value }
        if let value = environment["CYD_GIT_MAX_OBJECTS"].flatMap(Int.init), value > 0 { limits.maximumObjects = value }
        if let value = environment["CYD_GIT_MAX_REFS"].flatMap(Int.init), value > 0 { limits.maximumRefs = value }
        if let value = environment["CYD_GIT_LOW_SPEED"] {
            let parts = value.split(separator: "/")
            if parts.count == 2, let bytes = Int(parts[0]), let seconds = Double(parts[1]), bytes >= 0, seconds > 0 {
                limits.lowSpeedBytesPerSecond = bytes
                limits.lowSpeedSeconds = seconds
            }
        }
        return limits
    }
}

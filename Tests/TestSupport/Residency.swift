import Foundation

/// How much of a mapping is resident in this process, for tests that check a mapped file's
/// pages were given back.
public enum Residency {
    /// The bytes of the mapping starting at `address` resident now (its Rss in /proc/self/smaps).
    public static func resident(_ mapping: (address: UInt, length: Int)) throws -> Int {
        let start = String(mapping.address, radix: 16)
        var inMapping = false
        // Read to its end: the file says it has no size.
        guard let smaps = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else {
            throw TestSupportError("cannot read /proc/self/smaps")
        }
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            if let range = line.split(separator: " ").first, range.contains("-") {
                inMapping = range.split(separator: "-").first.map { $0.drop { $0 == "0" } == start.drop { $0 == "0" } } ?? false
            } else if inMapping, line.hasPrefix("Rss:") {
                return (Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0) * 1024
            }
        }
        throw TestSupportError("no mapping at \(start) in /proc/self/smaps")
    }
}

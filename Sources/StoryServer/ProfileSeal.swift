// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Transport

/// The profile cookie, bound to this library: its value is the profile's name and a MAC of it
/// (HMAC-SHA-256 under a secret kept in the library folder, `serve-secret`). Cookies ignore
/// ports, so a page served from any other port of 127.0.0.1 can set `cyd_profile` for this one
/// with `document.cookie`; without the secret it cannot make a value this server takes, and a
/// browser that never chose a profile never reads as someone else's.
struct ProfileSeal: Sendable {
    let secret: [UInt8]

    static let secretFile = "serve-secret"

    /// The library's secret, made on first use; a fresh one for this run where the library
    /// folder cannot keep it (profiles are then chosen again after a restart).
    static func load(in folder: String) -> ProfileSeal {
        let hex = (try? ServeToken.load(in: folder, file: secretFile)) ?? Forms.secret()
        return ProfileSeal(secret: Array(hex.utf8))
    }

    /// The cookie value naming `profile`.
    func seal(_ profile: String) -> String {
        Forms.carry(profile) + "." + mac(profile)
    }

    /// The profile a cookie value names, when this server made it.
    func open(_ value: String) -> String? {
        guard let dot = value.lastIndex(of: ".") else { return nil }
        let profile = Forms.uncarry(String(value[..<dot]))
        guard Forms.sameSecret(String(value[value.index(after: dot)...]), mac(profile)) else { return nil }
        return profile
    }

    /// HMAC-SHA-256 (RFC 2104) of the name, as 32 hex digits; empty when no SHA-256 can be had,
    /// which no cookie matches.
    private func mac(_ profile: String) -> String {
        let block = 64
        var key = secret.count > block ? ((try? Digest.sha256(secret)) ?? []) : secret
        key += [UInt8](repeating: 0, count: block - key.count)
        guard let inner = try? Digest.sha256(key.map { $0 ^ 0x36 } + Array(profile.utf8)),
            let outer = try? Digest.sha256(key.map { $0 ^ 0x5c } + inner)
        else { return "" }
        return String(Digest.hex(outer).prefix(32))
    }
}
#endif

import CCrypto

/// Why a digest or signature could not be made: libcrypto is missing or refused.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

/// SHA-256 and SHA-512 (OpenSSL's libcrypto, loaded on first use).
public enum Digest {
    public static func sha256(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let ok = bytes.withUnsafeBufferPointer { ccrypto_sha256($0.baseAddress, $0.count, &digest) }
        guard ok == 1 else { throw Self.failure("SHA-256") }
        return digest
    }

    public static func sha512(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 64)
        let ok = bytes.withUnsafeBufferPointer { ccrypto_sha512($0.baseAddress, $0.count, &digest) }
        guard ok == 1 else { throw Self.failure("SHA-512") }
        return digest
    }

    /// SHA-256 as 64 lowercase hexadecimal digits.
    public static func sha256Hex(_ bytes: [UInt8]) throws(CryptoError) -> String { hex(try sha256(bytes)) }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func failure(_ what: String) -> CryptoError {
        ccrypto_load() == 1 ? CryptoError(description: "libcrypto could not compute \(what)") : CryptoError(description: String(cString: ccrypto_load_error()))
    }
}

/// Ed25519 keys and signatures (RFC 8032), by OpenSSL's libcrypto.
public enum Ed25519 {
    /// 32 random bytes: the seed a secret key is made of.
    public static func newSeed() throws(CryptoError) -> [UInt8] {
        var seed = [UInt8](repeating: 0, count: 32)
        guard ccrypto_random(&seed, 32) == 1 else { throw Digest.failure("random bytes") }
        return seed
    }

    public static func publicKey(seed: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard seed.count == 32 else { throw CryptoError(description: "an Ed25519 seed is 32 bytes, not \(seed.count)") }
        var key = [UInt8](repeating: 0, count: 32)
        guard ccrypto_ed25519_public_key(seed, &key) == 1 else { throw Digest.failure("an Ed25519 public key") }
        return key
    }

    public static func sign(_ message: [UInt8], seed: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard seed.count == 32 else { throw CryptoError(description: "an Ed25519 seed is 32 bytes, not \(seed.count)") }
        var signature = [UInt8](repeating: 0, count: 64)
        let ok = message.withUnsafeBufferPointer { ccrypto_ed25519_sign(seed, $0.baseAddress, $0.count, &signature) }
        guard ok == 1 else { throw Digest.failure("an Ed25519 signature") }
        return signature
    }

    /// Whether `signature` is `publicKey`'s signature of `message`. Throws only when libcrypto
    /// cannot be loaded (an unverifiable signature is never taken as good).
    public static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> Bool {
        guard ccrypto_load() == 1 else { throw Digest.failure("") }
        guard signature.count == 64, publicKey.count == 32 else { return false }
        return message.withUnsafeBufferPointer { ccrypto_ed25519_verify(publicKey, $0.baseAddress, $0.count, signature) } == 1
    }
}

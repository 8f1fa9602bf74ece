#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import Transport

/// Keys and signatures in the format of OpenBSD's signify (Ed25519): each file is an untrusted
/// comment line and one line of base64. A public key is "Ed", an 8-byte key number and the
/// 32-byte key; a signature "Ed", the signer's key number and the 64-byte signature; a secret
/// key "Ed", "BK" (bcrypt-pbkdf), the rounds, a salt, a checksum (the first 8 bytes of the
/// SHA-512 of the 64-byte secret key), the key number and the secret key (seed and public key),
/// XORed with a key derived from a passphrase; cyd writes keys without one (0 rounds), as
/// `signify -G -n` does. An embedded signature (`signify -S -e`) is the signature's two lines
/// followed by the message itself: that is how a signed catalogue root is published.
public enum Signify {
    public struct PublicKey: Sendable, Equatable {
        public var keyNumber: [UInt8]
        public var key: [UInt8]

        /// The base64 line of the public key file: what `--trust` takes and a library remembers.
        public var line: String { Data([UInt8]("Ed".utf8) + keyNumber + key).base64EncodedString() }
        /// The key number in hex, how people tell keys apart.
        public var fingerprint: String { Digest.hex(keyNumber) }

        /// The key file's text.
        public func file(comment: String) -> [UInt8] { Array("untrusted comment: \(comment)\n\(line)\n".utf8) }
    }

    public struct SecretKey: Sendable {
        public var keyNumber: [UInt8]
        public var seed: [UInt8]
        public var publicKey: PublicKey
    }

    public enum Failure: Error, Sendable, Equatable {
        /// The file is not in signify's format: which part, and why.
        case malformed(what: String, reason: String)
        /// The secret key is protected by a passphrase (cyd takes keys made with `signify -G -n`).
        case passphraseProtected
        /// The signature was made by another key (key numbers differ).
        case wrongKey(signedBy: String, trusted: String)
        /// The signature does not match the message.
        case badSignature
        /// libcrypto could not be used.
        case crypto(String)
    }

    /// A new key pair.
    public static func generate() throws(Failure) -> SecretKey {
        do {
            let seed = try Ed25519.newSeed()
            var number = try Ed25519.newSeed()
            number = Array(number.prefix(8))
            return SecretKey(keyNumber: number, seed: seed, publicKey: PublicKey(keyNumber: number, key: try Ed25519.publicKey(seed: seed)))
        } catch {
            throw .crypto(error.description)
        }
    }

    /// The secret key file (no passphrase: 0 rounds, a zero salt).
    public static func secretKeyFile(_ secret: SecretKey, comment: String) throws(Failure) -> [UInt8] {
        let full = secret.seed + secret.publicKey.key
        let checksum: [UInt8]
        do { checksum = Array(try Digest.sha512(full).prefix(8)) } catch { throw .crypto(error.description) }
        let blob = Array("EdBK".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + checksum + secret.keyNumber + full
        return Array("untrusted comment: \(comment)\n\(Data(blob).base64EncodedString())\n".utf8)
    }

    /// Reads a public key: a key file's text, or its base64 line alone.
    public static func publicKey(_ bytes: [UInt8]) throws(Failure) -> PublicKey {
        let blob = try decode(bytes, what: "public key", size: 42)
        guard blob.starts(with: Array("Ed".utf8)) else { throw .malformed(what: "public key", reason: "it is not an Ed25519 key") }
        return PublicKey(keyNumber: Array(blob[2..<10]), key: Array(blob[10..<42]))
    }

    public static func secretKey(_ bytes: [UInt8]) throws(Failure) -> SecretKey {
        let blob = try decode(bytes, what: "secret key", size: 104)
        guard blob.starts(with: Array("EdBK".utf8)) else { throw .malformed(what: "secret key", reason: "it is not an Ed25519 key with bcrypt-pbkdf") }
        let rounds = blob[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard rounds == 0 else { throw .passphraseProtected }
        let checksum = Array(blob[24..<32])
        let number = Array(blob[32..<40])
        let full = Array(blob[40..<104])
        do {
            guard Array(try Digest.sha512(full).prefix(8)) == checksum else {
                throw Failure.malformed(what: "secret key", reason: "its checksum does not match (the file is damaged)")
            }
            let seed = Array(full.prefix(32))
            let key = try Ed25519.publicKey(seed: seed)
            guard key == Array(full.suffix(32)) else { throw Failure.malformed(what: "secret key", reason: "its two halves do not belong together") }
            return SecretKey(keyNumber: number, seed: seed, publicKey: PublicKey(keyNumber: number, key: key))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .crypto(String(describing: error))
        }
    }

    /// `message` with its signature embedded before it (`signify -S -e`).
    public static func embed(_ message: [UInt8], signedWith secret: SecretKey, comment: String) throws(Failure) -> [UInt8] {
        let signature: [UInt8]
        do { signature = try Ed25519.sign(message, seed: secret.seed) } catch { throw .crypto(error.description) }
        let blob = Array("Ed".utf8) + secret.keyNumber + signature
        return Array("untrusted comment: \(comment)\n\(Data(blob).base64EncodedString())\n".utf8) + message
    }

    /// The message of an embedded signature, once the signature is found to be `key`'s.
    public static func verifyEmbedded(_ bytes: [UInt8], key: PublicKey) throws(Failure) -> [UInt8] {
        guard let first = bytes.prefix(4096).firstIndex(of: 0x0A),
            let second = bytes[(first + 1)...].prefix(4096).firstIndex(of: 0x0A)
        else { throw .malformed(what: "signature", reason: "it does not start with a comment line and a signature line") }
        let blob = try decode(Array(bytes[...second]), what: "signature", size: 74)
        guard blob.starts(with: Array("Ed".utf8)) else { throw .malformed(what: "signature", reason: "it is not an Ed25519 signature") }
        let number = Array(blob[2..<10])
        guard number == key.keyNumber else { throw .wrongKey(signedBy: Digest.hex(number), trusted: key.fingerprint) }
        let message = Array(bytes[(second + 1)...])
        let valid: Bool
        do { valid = try Ed25519.isValid(Array(blob[10..<74]), of: message, publicKey: key.key) } catch { throw .crypto(error.description) }
        guard valid else { throw .badSignature }
        return message
    }

    /// Whether the bytes start like a signify file (an untrusted comment).
    public static func isSigned(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("untrusted comment: ".utf8)) }

    /// The base64 blob of a signify file (comment line, then base64), or of a bare base64 line.
    static func decode(_ bytes: [UInt8], what: String, size: Int) throws(Failure) -> [UInt8] {
        guard bytes.count < 4096, let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformed(what: what, reason: "it is not a short text file")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.first?.hasPrefix("untrusted comment: ") == true {
            lines.removeFirst()
        } else if lines.count != 1 {
            throw .malformed(what: what, reason: "it does not start with \"untrusted comment: \"")
        }
        guard let line = lines.first, let blob = Data(base64Encoded: line), blob.count == size else {
            throw .malformed(what: what, reason: "its second line is not \(size) bytes of base64")
        }
        return [UInt8](blob)
    }
}

extension Signify {
    /// Why a key pair was not written.
    public enum KeyPairFailure: Error, Sendable {
        /// A file is there already (a key is never overwritten).
        case exists(path: String)
        case signify(Failure)
        case cannotWrite(path: String, AtomicFile.Failure)
    }

    /// Makes a key pair and writes it: `name`.sec (the secret key, readable by its owner only)
    /// and `name`.pub, each with a comment naming `purpose` and the key's fingerprint. Nothing is
    /// written over an existing file. Returns the public key.
    public static func writeKeyPair(named name: String, purpose: String) throws(KeyPairFailure) -> PublicKey {
        let (secretPath, publicPath) = (name + ".sec", name + ".pub")
        for path in [secretPath, publicPath] where FileStatus(path) != nil { throw .exists(path: path) }
        let key: SecretKey
        let secretFile: [UInt8]
        do {
            key = try generate()
            secretFile = try secretKeyFile(key, comment: "\(purpose) \(key.publicKey.fingerprint) secret key")
        } catch {
            throw .signify(error)
        }
        do { try AtomicFile.write(secretFile, to: secretPath, mode: 0o600) } catch { throw .cannotWrite(path: secretPath, error) }
        do { try AtomicFile.write(key.publicKey.file(comment: "\(purpose) \(key.publicKey.fingerprint) public key"), to: publicPath) } catch {
            throw .cannotWrite(path: publicPath, error)
        }
        return key.publicKey
    }
}

import Foundation
import RaceLab

/// One version of one document, as bytes that prove whether they are whole.
///
/// Layout: a 28-byte header (magic, document, version, body length, FNV-1a checksum of the body),
/// then a body of bytes drawn from a generator seeded with (document, version). A reader that finds
/// the right length and checksum holds a version some writer wrote, whole. Anything else (an empty
/// file, a truncated one, the front of one version and the back of another) is a **torn** read:
/// neither the old value nor the new.
struct Payload: Equatable, Sendable {
    static let magic: UInt32 = 0x5344_4C52  // "RLDS" little-endian
    static let headerLength = 28

    var document: Int
    var version: Int
    var bodyLength: Int

    init(document: Int, version: Int, bodyLength: Int) {
        self.document = document
        self.version = version
        self.bodyLength = bodyLength
    }

    /// The payload `data` holds, or nil when `data` is torn.
    init?(validating data: Data) {
        guard data.count >= Self.headerLength else { return nil }
        let bytes = [UInt8](data)
        guard Self.load(UInt32.self, bytes, 0) == Self.magic else { return nil }
        let length = Int(Self.load(UInt32.self, bytes, 16))
        guard bytes.count == Self.headerLength + length,
            Self.load(UInt64.self, bytes, 20) == Self.checksum(bytes[Self.headerLength...])
        else { return nil }
        document = Int(Self.load(UInt32.self, bytes, 4))
        version = Int(Self.load(UInt64.self, bytes, 8))
        bodyLength = length
    }

    /// The bytes a writer stores.
    func encoded() -> Data {
        var generator = SplitMix64(seed: SplitMix64.derive(0x5045_5253, document, version))
        let words = (bodyLength + 7) / 8
        var body = [UInt8](repeating: 0, count: words * 8)
        body.withUnsafeMutableBytes { raw in
            for word in 0..<words {
                raw.storeBytes(of: generator.next().littleEndian, toByteOffset: word * 8, as: UInt64.self)
            }
        }
        body.removeLast(words * 8 - bodyLength)
        var data = Data(capacity: Self.headerLength + bodyLength)
        Self.append(Self.magic, to: &data)
        Self.append(UInt32(document), to: &data)
        Self.append(UInt64(version), to: &data)
        Self.append(UInt32(bodyLength), to: &data)
        Self.append(Self.checksum(body[...]), to: &data)
        data.append(contentsOf: body)
        return data
    }

    /// FNV-1a over 8-byte words (then the odd bytes): enough to tell a body from a mix of two, and
    /// cheap enough to check every read.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        return bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            let words = raw.count / 8
            for word in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)) &* prime
            }
            for offset in (words * 8)..<raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* prime
            }
            return hash
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        var value: T = 0
        for index in (0..<MemoryLayout<T>.size).reversed() {
            value = value << 8 | T(bytes[offset + index])
        }
        return value
    }
}

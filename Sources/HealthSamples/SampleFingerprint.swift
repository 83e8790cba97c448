import Crypto

/// Seed 004's content hash of a sample, the secondary duplicate check for clients that send no platform id.
public enum SampleFingerprint {
    /// SHA-256, as lowercase hex, of `userId:sampleId:type:value:startDate:endDate` — byte for byte what seed 004's
    /// TypeScript computes:
    ///
    /// ```typescript
    /// const data = `${userId}:${sample.id}:${sample.type}:${sample.value}:${sample.startDate}:${sample.endDate}`;
    /// return sha256(data);
    /// ```
    ///
    /// - Parameters:
    ///   - userID: The account id as the seed wrote it: a lowercase UUID.
    ///   - sampleID: The client's sample id. A sample without one (`nil`) hashes with the empty string, so the same
    ///     content always gives the same fingerprint. (JavaScript would have written `undefined`; no stored seed
    ///     hash has that form, because the seed's HealthKit samples always had an id. To reproduce one that does,
    ///     pass `"undefined"`.)
    ///   - type: The type name exactly as the client sent it (`activeMinutes`, not `active_minutes`).
    ///   - value: The value as the client sent it, before unit conversion; written as JavaScript writes numbers
    ///     (`5000`, `1.5`, `0.30000000000000004`, `1e+21`).
    ///   - startDate: The start exactly as the client sent it, not reformatted.
    ///   - endDate: The end exactly as the client sent it.
    public static func seedHash(
        userID: String, sampleID: String?, type: String, value: Double, startDate: String, endDate: String
    ) -> String {
        var hash = SHA256()
        for (index, field) in [userID, sampleID ?? "", type, JavaScriptNumber.string(value), startDate, endDate]
            .enumerated()
        {
            if index > 0 { hash.update(data: [UInt8(ascii: ":")]) }
            var field = field
            field.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return lowercaseHex(hash.finalize())
    }

    /// `bytes` as lowercase hex, two digits each.
    package static func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

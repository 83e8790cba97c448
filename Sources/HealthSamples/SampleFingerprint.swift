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
        let fields = [userID, sampleID ?? "", type, JavaScriptNumber.string(value), startDate, endDate]
        let digest = SHA256.hash(data: Array(fields.joined(separator: ":").utf8))
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

import Vapor

/// `GET /health/statistics`: `{"items":[{date, steps, duration, calories, distance}, …], "summary":{…}}`.
///
/// Written byte by byte into one buffer: ten years by day is 3,660 items, and `JSONEncoder` spent longer on them
/// than the rest of the request. Labels are ASCII digits, `-`, `W` and ` to `, so nothing needs escaping.
struct StatisticsResponse: AsyncResponseEncodable {
    let statistics: HealthData.Statistics

    init(_ statistics: HealthData.Statistics) {
        self.statistics = statistics
    }

    func encodeResponse(for request: Request) async throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        let body = json(allocator: request.byteBufferAllocator)
        return Response(status: .ok, headers: headers, body: .init(buffer: body))
    }

    func json(allocator: ByteBufferAllocator) -> ByteBuffer {
        let summaryLabel = "\(statistics.start) to \(statistics.end)"
        // An item is at most 66 bytes of punctuation and names, its label, and five numbers of at most 21 bytes.
        let itemBound = 66 + 5 * 21
        let bound =
            32 + (statistics.items.count + 1) * itemBound + summaryLabel.utf8.count
            + statistics.items.reduce(0) { $0 + $1.label.utf8.count }
        var buffer = allocator.buffer(capacity: bound)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { bytes in
            var writer = JSONBytes(bytes: bytes)
            writer.append(#"{"items":["#)
            for (index, item) in statistics.items.enumerated() {
                if index > 0 { writer.append(",") }
                writer.append(item.label, item.totals)
            }
            writer.append(#"],"summary":"#)
            writer.append(summaryLabel, statistics.summary)
            writer.append("}")
            return writer.count
        }
        return buffer
    }
}

/// Writes a statistics body into memory sized for it in advance.
struct JSONBytes {
    let bytes: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = bytes
    }

    /// `{"date":label,"steps":…,"duration":…,"calories":…,"distance":…}`.
    mutating func append(_ label: String, _ totals: HealthTotals) {
        append(#"{"date":""#)
        append(label)
        append(#"","steps":"#)
        append(integer: totals.steps)
        append(#","duration":"#)
        append(integer: totals.duration)
        append(#","calories":"#)
        append(hundredths: totals.caloriesHundredths)
        append(#","distance":"#)
        append(hundredths: totals.distanceHundredths)
        append("}")
    }

    mutating func append(_ text: StaticString) {
        let source = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        UnsafeMutableRawBufferPointer(rebasing: bytes[count..<count + source.count]).copyMemory(from: source)
        count += source.count
    }

    mutating func append(_ text: String) {
        for byte in text.utf8 { append(byte: byte) }
    }

    /// `value` in decimal digits, as JSON writes an integer.
    mutating func append(integer value: Int64) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        append(digitsOf: value.magnitude)
    }

    /// `hundredths / 100` as the shortest decimal that `JSONEncoder` writes for that `Double`: `12`, `12.5`, `12.05`.
    mutating func append(hundredths: Int64) {
        if hundredths < 0 { append(byte: UInt8(ascii: "-")) }
        let magnitude = hundredths.magnitude
        append(digitsOf: magnitude / 100)
        let fraction = UInt8(magnitude % 100)
        guard fraction != 0 else { return }
        append(byte: UInt8(ascii: "."))
        append(byte: UInt8(ascii: "0") + fraction / 10)
        if fraction % 10 != 0 { append(byte: UInt8(ascii: "0") + fraction % 10) }
    }

    private mutating func append(digitsOf value: UInt64) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            append(byte: UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    private mutating func append(byte: UInt8) {
        bytes[count] = byte
        count += 1
    }
}

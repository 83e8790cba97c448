/// The head of a data item: its major type, additional information and argument (RFC 8949 §3).
struct CBORHead {
    /// The item's major type.
    let majorType: MajorType
    /// The low five bits of the initial byte.
    let additionalInfo: UInt8
    /// The integer value, length, count, tag number or float bits carried by the head.
    let argument: UInt64
    /// The offset of the initial byte in the input.
    let offset: Int
}

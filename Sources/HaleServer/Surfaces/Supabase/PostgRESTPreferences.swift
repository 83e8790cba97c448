import Vapor

/// What a `Prefer` header asks of PostgREST, as supabase-js sends it: `return=representation`,
/// `resolution=merge-duplicates` or `ignore-duplicates`, `count=exact`. Unknown preferences are ignored, as
/// PostgREST ignores them unless told to be strict.
struct PostgRESTPreferences: Equatable {
    /// How an insert meets a row that already has its key.
    enum Resolution: Equatable {
        /// A conflict is an error (`23505`).
        case none
        /// The existing row is updated (an upsert).
        case mergeDuplicates
        /// The new row is dropped, silently.
        case ignoreDuplicates
    }

    var representation = false
    var resolution = Resolution.none
    var countExact = false

    init(_ headers: HTTPHeaders) {
        let tokens = headers[.init("Prefer")].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for token in tokens {
            switch token {
            case "return=representation": representation = true
            case "resolution=merge-duplicates": resolution = .mergeDuplicates
            case "resolution=ignore-duplicates": resolution = .ignoreDuplicates
            case "count=exact": countExact = true
            default: continue
            }
        }
    }
}

import ArgumentParser
import Crypto
import Foundation

/// `hale supabase …`.
struct SupabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supabase", abstract: "The Supabase-compatible surface at /rest/v1 (seed 004's app).",
        subcommands: [Key.self])

    /// `hale supabase key`.
    struct Key: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new publishable key for supabase-js's createClient.",
            discussion: """
                Add it to supabase.publishableKeys (HALE_SUPABASE_PUBLISHABLE_KEYS) on every instance, then give it \
                to the app: createClient(url, key, { accessToken }). It identifies the app, not a person: it ships \
                in the app and is no secret; every read and write still needs the person's Hale access token. To \
                rotate, list the old and the new key, ship the app with the new one, then remove the old.
                """)

        func run() throws {
            let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            let encoded = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            print("sb_publishable_" + encoded)
        }
    }
}

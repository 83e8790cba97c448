extension SocialTokenVerifier {
    /// The key `keyID` names in the set at `url`, published in `format`, fetching the set when the cache says to.
    func verificationKey(_ keyID: String, url: String, format: KeySetFormat = .jsonWebKeySet)
        async throws(SocialTokenError) -> JSONWebKey
    {
        switch keySets.plan(keyID: keyID, url: url, now: now(), refreshInterval: configuration.keySetRefreshInterval) {
        case .use(let key): return key
        case .unknownKey: throw .unknownKeyID
        case .fetch: break
        }
        let outcome = await fetchKeySet(url, format: format)
        // After a failed fetch, a set cached earlier is still used.
        if let key = keySets.cachedKey(keyID: keyID, url: url) { return key }
        if case .failure(let error) = outcome, !keySets.holdsSet(for: url) { throw error }
        throw .unknownKeyID
    }

    /// Fetches the set at `url`, or joins the fetch already under way, and caches what it brings.
    private func fetchKeySet(_ url: String, format: KeySetFormat) async -> Result<KeySetDownload, SocialTokenError> {
        let task: Task<Result<KeySetDownload, SocialTokenError>, Never>
        if let inFlight = fetchesInFlight[url] {
            task = inFlight
        } else {
            let http = self.http
            task = Task { await KeySetDownload.fetch(url, format: format, using: http) }
            fetchesInFlight[url] = task
            keySets.fetchStarted(url, now: now())
        }
        let outcome = await task.value
        // Whoever resumes first records the outcome, so that every waiter finds it in the cache.
        if fetchesInFlight[url] == task {
            fetchesInFlight[url] = nil
            if case .success(let download) = outcome { keySets.store(download, for: url, now: now()) }
        }
        return outcome
    }
}

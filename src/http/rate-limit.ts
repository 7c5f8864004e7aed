// A token bucket per API key: `burst` requests at once, refilled at `perSecond`. In memory and per
// process (several `serve` processes each allow the rate). Keys that authenticated get a bucket, bounded
// by the keys the operator issued; requests whose key is unknown spend their client address's bucket,
// and those are bounded by `maxBuckets` (the longest-idle go first), never by what strangers send.

export interface RateLimiter {
  /**
   * Takes `count` tokens (default one) for the key, all or none: undefined when granted, else the seconds
   * until that many are due (>= 1).
   */
  take(key: string, count?: number): number | undefined
  /** Whether the key's bucket is empty, taking nothing: undefined when a token is there, else the wait. */
  waitFor(key: string): number | undefined
}

interface Bucket {
  tokens: number
  at: number
}

export function tokenBuckets(
  { perSecond, burst, maxBuckets = Infinity }: { perSecond: number; burst: number; maxBuckets?: number },
  now: () => number = () => performance.now(),
): RateLimiter {
  const buckets = new Map<string, Bucket>()
  const tokensAt = (key: string, at: number) => {
    const bucket = buckets.get(key)
    return bucket ? Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond) : burst
  }
  const wait = (tokens: number, count: number) => Math.max(1, Math.ceil((count - tokens) / perSecond))
  const set = (key: string, bucket: Bucket) => {
    // Re-inserted, so the map's order is the buckets' last use: the first is the longest idle.
    buckets.delete(key)
    if (buckets.size >= maxBuckets) buckets.delete(buckets.keys().next().value as string)
    buckets.set(key, bucket)
  }
  return {
    take(key, count = 1) {
      const at = now()
      const tokens = tokensAt(key, at)
      if (tokens >= count) {
        set(key, { tokens: tokens - count, at })
        return undefined
      }
      set(key, { tokens, at })
      return wait(tokens, count)
    },
    waitFor(key) {
      const tokens = tokensAt(key, now())
      return tokens >= 1 ? undefined : wait(tokens, 1)
    },
  }
}

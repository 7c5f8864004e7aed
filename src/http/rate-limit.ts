// A token bucket per API key: `burst` requests at once, refilled at `perSecond`. In memory and per
// process (several `serve` processes each allow the rate). Only keys that authenticated get a bucket, so
// the map is bounded by the keys the operator issued, never by what a stranger sends.

export interface RateLimiter {
  /**
   * Takes `count` tokens (default one) for the key, all or none: undefined when granted, else the seconds
   * until that many are due (>= 1).
   */
  take(key: string, count?: number): number | undefined
}

interface Bucket {
  tokens: number
  at: number
}

export function tokenBuckets(
  { perSecond, burst }: { perSecond: number; burst: number },
  now: () => number = () => performance.now(),
): RateLimiter {
  const buckets = new Map<string, Bucket>()
  return {
    take(key, count = 1) {
      const at = now()
      const bucket = buckets.get(key)
      const tokens = bucket ? Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond) : burst
      if (tokens >= count) {
        buckets.set(key, { tokens: tokens - count, at })
        return undefined
      }
      buckets.set(key, { tokens, at })
      return Math.max(1, Math.ceil((count - tokens) / perSecond))
    },
  }
}

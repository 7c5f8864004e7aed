// A token bucket per API key: `burst` requests at once, refilled at `perSecond`. In memory and per
// process (several `serve` processes each allow the rate). Only keys that authenticated get a bucket, so
// the map is bounded by the keys the operator issued, never by what a stranger sends.

export interface RateLimiter {
  /** Takes one token for the key: undefined when granted, else the seconds until one is due (>= 1). */
  take(key: string): number | undefined
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
    take(key) {
      const at = now()
      const bucket = buckets.get(key)
      const tokens = bucket ? Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond) : burst
      if (tokens >= 1) {
        buckets.set(key, { tokens: tokens - 1, at })
        return undefined
      }
      buckets.set(key, { tokens, at })
      return Math.max(1, Math.ceil((1 - tokens) / perSecond))
    },
  }
}

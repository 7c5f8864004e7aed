// Ids and time in one place, so every floor that writes rows and tests agree on their forms.
import { randomFillSync } from 'node:crypto'
import { iso } from './time.js'

const ID_LENGTH = 24
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
// Bytes at or above this are rejected so that every character is uniformly distributed.
const LETTER_LIMIT = 26 * 9
const DIGIT_LIMIT = 36 * 7

let pool = Buffer.alloc(0)
let offset = 0

function randomByte(): number {
  if (offset === pool.length) {
    pool = randomFillSync(Buffer.alloc(4096))
    offset = 0
  }
  return pool[offset++]!
}

function randomBelow(limit: number, modulus: number): number {
  for (;;) {
    const byte = randomByte()
    if (byte < limit) return byte % modulus
  }
}

/**
 * A cuid2-format id (a lowercase letter, then 23 of [0-9a-z]: what the spec's "cuid format" promises)
 * drawn from the CSPRNG: about 119 random bits. cuid2's own generator hashes with SHA3 for every id,
 * about 20 µs each, which was a third of a 500-game import's CPU time.
 */
export function newId(): string {
  let id = DIGITS[10 + randomBelow(LETTER_LIMIT, 26)]!
  for (let i = 1; i < ID_LENGTH; i++) id += DIGITS[randomBelow(DIGIT_LIMIT, 36)]
  return id
}

/**
 * Where every rule reads the time: `Deps.clock` for the services, the dispatcher's option for fan-out and endpoint
 * health. Tests move it instead of waiting; lint keeps `Date.now()` and `new Date()` out of the rules.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()` counts them. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** The clock's instant as `YYYY-MM-DDTHH:MM:SS.sssZ`, the one time format stored and rendered. */
export const isoNow = (clock: Clock): string => iso(clock.now())

// The app's bearer secrets (sign-in links, session cookies, calendar feeds): 256 random bits, base64url, of
// which the database keeps only the SHA-256.
import { createHash, randomBytes } from 'node:crypto'

const TOKEN = /^[A-Za-z0-9_-]{43}$/

export const newSecretToken = (): string => randomBytes(32).toString('base64url')

export const hashSecret = (token: string): string => createHash('sha256').update(token).digest('hex')

/** Anything else was never issued: it is refused without a database round trip. */
export const isSecretToken = (value: unknown): value is string =>
  typeof value === 'string' && TOKEN.test(value)

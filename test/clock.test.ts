// Ids keep the cuid2 format the spec promises ("cuid format") and the randomness that makes them
// unguessable and collision-free.
import { describe, expect, it } from 'vitest'
import { newId } from '../src/clock.js'

describe('newId', () => {
  const ids = Array.from({ length: 20_000 }, newId)

  it('is a lowercase letter followed by 23 of [0-9a-z]', () => {
    for (const id of ids) expect(id).toMatch(/^[a-z][0-9a-z]{23}$/)
  })

  it('never repeats', () => {
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('uses every letter first and every character in every later place', () => {
    expect(new Set(ids.map((id) => id[0])).size).toBe(26)
    for (let i = 1; i < 24; i++) expect(new Set(ids.map((id) => id[i])).size).toBe(36)
  })
})

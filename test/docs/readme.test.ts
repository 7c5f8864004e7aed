// The README says what the service does (issue 36, item 11): crews on import, 429 among the errors, the
// first league with its time zone, the browser suite once, and calendar events as long as their games.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const APP = readFileSync(new URL('../../docs/app.md', import.meta.url), 'utf8')

describe('the README', () => {
  it('keeps its first lines: how to run and how to test', () => {
    expect(README.split('\n').slice(0, 6).join('\n')).toMatch(/npm ci && npm start[\s\S]*npm ci && npm test/)
  })

  it('says an imported game may get a crew, and lists 429 among the error statuses', () => {
    expect(README).toMatch(/each game gets one position, or the crew its item's `positions`/)
    expect(README).toMatch(/status 400, 401, 404, 409 or 429/)
    expect(README).toContain('rate_limited')
  })

  it('creates its first league with a time zone', () => {
    const firstLeague = README.slice(
      README.indexOf('LEAGUE=$('),
      README.indexOf('data.id', README.indexOf('LEAGUE=$(')),
    )
    expect(firstLeague).toMatch(/"timeZone":"[A-Z][a-z]+\/[A-Za-z_]+"/)
  })

  it('names npm run test:browser once', () => {
    expect(README.match(/npm run test:browser/g)).toHaveLength(1)
  })

  it('says calendar events last their games, as the feed writes them (from startsAt to endsAt)', () => {
    expect(README).toContain(
      "each game an event from its start to its end: its own\n`durationMinutes`, else its league's `gameMinutes`",
    )
    expect(APP).not.toContain('two-hour event')
  })
})

// Examples of each event's `data` for test deliveries: the shapes real events carry (one league, a game
// with one claimed position, its official and a payment), with fresh ids and the endpoint's own source,
// so a receiver's parsing is exercised exactly as by real events. None of these rows exists.
import { newId } from '../../clock.js'
import type { EventData, EventName } from '../../schemas/events.js'
import { HOUR_MS, iso, MINUTE_MS } from '../../time.js'

export function sampleEventData(event: EventName, source: string, now: number): { leagueId: string } {
  const leagueId = newId()
  const userId = newId()
  const positionId = newId()
  const startsAt = iso(Math.ceil((now + 72 * HOUR_MS) / HOUR_MS) * HOUR_MS)
  const game = {
    id: newId(),
    leagueId,
    sport: 'soccer',
    startsAt,
    durationMinutes: 90,
    endsAt: iso(Date.parse(startsAt) + 90 * MINUTE_MS),
    location: 'Field 1',
    venue: null,
    status: 'claimed' as const,
    latitude: 40.7128,
    longitude: -74.006,
    source,
    externalId: 'sample-game-1',
  }
  const position = { id: positionId, label: 'Referee', payCents: 4500, payDollars: 45, minLevel: null }
  const claimOfficial = {
    id: userId,
    name: 'Sam Whistle',
    email: 'sam@example.com',
    claimStatus: 'confirmed' as const,
  }
  const official = {
    userId,
    leagueId,
    status: 'approved' as const,
    name: 'Sam Whistle',
    email: 'sam@example.com',
    externalId: 'sample-ref-7',
    source,
    createdAt: iso(now - 240 * HOUR_MS),
    level: null,
    confirmed: false,
  }
  const payment = {
    id: newId(),
    positionId,
    officialId: userId,
    amountCents: 4500,
    amountDollars: 45,
    currency: 'usd',
    mode: 'offline' as const,
    status: 'paid' as const,
    paidAt: iso(now),
    failureCode: null,
    failureMessage: null,
    createdAt: iso(now - HOUR_MS),
  }
  type Status = 'open' | 'claimed' | 'completed' | 'cancelled'
  const detail = (status: Status, withPayment = false) => ({
    ...game,
    status,
    positions: [
      {
        ...position,
        status,
        official: status === 'open' ? null : claimOfficial,
        payment: withPayment ? { ...payment, status: 'pending' as const, paidAt: null } : null,
      },
    ],
  })
  const positionEvent = (status: Status) => ({
    game: detail(status, status === 'completed'),
    positionId,
    official: claimOfficial,
  })
  const data: { [N in EventName]: () => EventData[N] } = {
    'game.created': () => ({ ...game, status: 'open', positions: [{ ...position, status: 'open' }] }),
    'game.updated': () => ({ ...game, location: 'Field 2', positions: [{ ...position, status: 'claimed' }] }),
    'game.cancelled': () => detail('cancelled'),
    'game.completed': () => detail('completed', true),
    'position.claimed': () => positionEvent('claimed'),
    'position.released': () => positionEvent('open'),
    'position.withdrawn': () => positionEvent('open'),
    'official.joined': () => ({ official: { ...official, status: 'pending' } }),
    'official.approved': () => ({ official }),
    'official.removed': () => ({ official, reopenedPositionIds: [positionId] }),
    'official.no_show': () => positionEvent('completed'),
    'payment.paid': () => ({ payment }),
    'payment.failed': () => ({
      payment: {
        ...payment,
        mode: 'platform',
        status: 'failed',
        paidAt: null,
        failureCode: 'card_declined',
        failureMessage: 'The card was declined.',
      },
    }),
  }
  return { leagueId, ...data[event]() }
}

// The 12 webhook event names and their `data` payloads (always carrying `leagueId`). Services build
// events here and append them to the outbox inside the transaction of the change that caused them.
import type { Transaction } from 'kysely'
import type { Game, GameDetail } from '../schemas/games.js'
import type { ClaimOfficial, Official } from '../schemas/officials.js'
import type { Payment } from '../schemas/payments.js'
import * as outbox from '../store/outbox.js'
import type { Db } from '../store/tables.js'
import { newId, nowIso } from './clock.js'
import { fanOut } from './webhook-endpoints.js'

export const EVENT_NAMES = [
  'game.created',
  'game.updated',
  'game.cancelled',
  'game.completed',
  'position.claimed',
  'position.released',
  'official.joined',
  'official.approved',
  'official.removed',
  'official.no_show',
  'payment.paid',
  'payment.failed',
] as const

export type EventName = (typeof EVENT_NAMES)[number]

interface PositionEventData {
  game: GameDetail
  positionId: string
  official: ClaimOfficial
}

export interface EventData {
  'game.created': Game
  'game.updated': Game
  'game.cancelled': GameDetail
  'game.completed': GameDetail
  'position.claimed': PositionEventData
  'position.released': PositionEventData
  'official.joined': { official: Official }
  'official.approved': { official: Official }
  'official.removed': { official: Official; reopenedPositionIds: string[] }
  'official.no_show': PositionEventData
  'payment.paid': { payment: Payment }
  'payment.failed': { payment: Payment }
}

export interface DomainEvent<N extends EventName = EventName> {
  event: N
  leagueId: string
  data: EventData[N] & { leagueId: string }
}

export function domainEvent<N extends EventName>(
  event: N,
  leagueId: string,
  data: EventData[N],
): DomainEvent<N> {
  return { event, leagueId, data: { leagueId, ...data } }
}

export async function recordEvents(trx: Transaction<Db>, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return
  const createdAt = nowIso()
  const rows = events.map((e) => ({
    id: `evt_${newId()}`,
    event: e.event,
    league_id: e.leagueId,
    data: JSON.stringify(e.data),
    created_at: createdAt,
  }))
  await outbox.appendEvents(trx, rows)
  await fanOut(trx, rows)
}

// The webhook event names (the spec's 12 and RefDesk's `position.withdrawn`), the `data` each carries (always with `leagueId`) and the delivery envelope:
// part of the wire contract, like every shape in this folder. The OpenAPI document's `webhooks` section is
// generated from these schemas.
import { z } from 'zod'
import { DateTime, Id } from './common.js'
import { Game, GameDetail } from './games.js'
import { ClaimOfficial, Official } from './officials.js'
import { Payment } from './payments.js'

export const EVENT_NAMES = [
  'game.created',
  'game.updated',
  'game.cancelled',
  'game.completed',
  'position.claimed',
  'position.released',
  'position.withdrawn',
  'official.joined',
  'official.approved',
  'official.removed',
  'official.no_show',
  'payment.paid',
  'payment.failed',
] as const

export type EventName = (typeof EVENT_NAMES)[number]

const LeagueId = Id.meta({ description: 'The league the event belongs to.' })

const PositionEventData = z
  .object({
    leagueId: LeagueId,
    game: GameDetail,
    positionId: Id,
    official: ClaimOfficial,
  })
  .meta({ id: 'PositionEventData', description: 'The game after the change, the position and its official.' })

const OfficialEventData = z
  .object({ leagueId: LeagueId, official: Official })
  .meta({ id: 'OfficialEventData', description: 'The membership after the change.' })

const OfficialRemovedEventData = z
  .object({
    leagueId: LeagueId,
    official: Official,
    reopenedPositionIds: z.array(Id).meta({ description: 'Claimed positions reopened, in position order.' }),
  })
  .meta({ id: 'OfficialRemovedEventData', description: 'The removed membership and the positions it held.' })

const PaymentEventData = z
  .object({ leagueId: LeagueId, payment: Payment })
  .meta({ id: 'PaymentEventData', description: 'The payment after the change.' })

/** Each event's `data`. */
export const EVENT_DATA = {
  'game.created': Game,
  'game.updated': Game,
  'game.cancelled': GameDetail,
  'game.completed': GameDetail,
  'position.claimed': PositionEventData,
  'position.released': PositionEventData,
  'position.withdrawn': PositionEventData,
  'official.joined': OfficialEventData,
  'official.approved': OfficialEventData,
  'official.removed': OfficialRemovedEventData,
  'official.no_show': PositionEventData,
  'payment.paid': PaymentEventData,
  'payment.failed': PaymentEventData,
} as const satisfies Record<EventName, z.ZodType>

/** What a service hands over; `leagueId` is added when the event is recorded. */
export type EventData = {
  [N in EventName]: Omit<z.output<(typeof EVENT_DATA)[N]>, 'leagueId'>
}

/** The delivery body of one event, as a named component (`GameCreatedEvent`, …). */
export function eventEnvelope<N extends EventName>(event: N) {
  const name = event
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')
  return z
    .object({
      id: z.string().meta({
        description: 'The event id, also sent as `webhook-id`.',
        example: 'evt_tz4a98xxat96iws9zmbrgj3a',
      }),
      event: z.literal(event),
      createdAt: DateTime.meta({ description: 'When the change committed.' }),
      data: EVENT_DATA[event],
    })
    .meta({ id: `${name}Event`, description: `The body of a \`${event}\` delivery.` })
}

export const EVENT_ENVELOPES = Object.fromEntries(EVENT_NAMES.map((name) => [name, eventEnvelope(name)])) as {
  [N in EventName]: ReturnType<typeof eventEnvelope<N>>
}
